package example.startup;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Kafka's own {@code org.apache.kafka.tools.ProducerPerformance} (kafka-tools on the class path,
 * called by name, so this compiles without it), run with the given arguments; then {@code perf
 * done}, and the JVM stays up until a line on standard input, so an agent's endpoint can be read.
 */
public final class ProducerPerformanceThenWait {

  private ProducerPerformanceThenWait() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    Class.forName("org.apache.kafka.tools.ProducerPerformance")
        .getMethod("main", String[].class)
        .invoke(null, (Object) args);
    System.out.println("perf done");
    System.out.flush();
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    System.out.println("bye");
  }
}
