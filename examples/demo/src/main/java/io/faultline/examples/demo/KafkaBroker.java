package io.faultline.examples.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A real single-node Kafka broker (KRaft: broker and controller in one process) as a child JVM,
 * started by the integration suite's own start script ({@code
 * src/test/docker/kafka/kafka-start.sh}) on the broker's own jars ({@code
 * src/test/docker/kafka/target/broker-libs}, built by Maven) — never on the demo's class path. Runs
 * in a {@link BrokerNamespace} when given one.
 */
final class KafkaBroker implements AutoCloseable {

  private static final String STARTED = "Kafka Server started";

  private final Path script;
  private final Map<String, String> env;
  private final List<String> prefix;
  private final String host;
  private final int port;
  private final Path log;
  private Process process;
  private int starts;

  private KafkaBroker(
      Path script, Map<String, String> env, List<String> prefix, String host, int port, Path log) {
    this.script = script;
    this.env = env;
    this.prefix = prefix;
    this.host = host;
    this.port = port;
    this.log = log;
  }

  /**
   * A broker (not yet started) whose data and log live under {@code work}; in {@code namespace} on
   * its address, or on 127.0.0.1 when it is null.
   */
  static KafkaBroker create(DemoPaths paths, Path work, BrokerNamespace namespace) {
    Path libs = paths.brokerLibs();
    if (!Files.isDirectory(libs)) {
      throw new IllegalStateException(
          libs + " is missing: build first (./demo does: ./mvnw -pl examples/demo -am package)");
    }
    String host = namespace == null ? "127.0.0.1" : namespace.brokerAddress();
    int port = namespace == null ? freePort() : 9092;
    int controller = namespace == null ? freePort() : 9093;
    Map<String, String> env =
        Map.of(
            "KAFKA_NODE_ID", "1",
            "KAFKA_ADVERTISED_HOST", host,
            "KAFKA_BROKER_PORT", Integer.toString(port),
            "KAFKA_CONTROLLER_PORT", Integer.toString(controller),
            "KAFKA_LIBS", libs.toString(),
            "KAFKA_DATA_DIR", work.resolve("data").toString(),
            "KAFKA_HEAP_OPTS", "-Xms128m -Xmx384m",
            "KAFKA_CFG_NUM_PARTITIONS", "3",
            "JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> prefix = namespace == null ? List.of() : namespace.commandPrefix();
    return new KafkaBroker(
        paths.brokerStartScript(), env, prefix, host, port, work.resolve("broker.log"));
  }

  String bootstrapServers() {
    return host + ":" + port;
  }

  int port() {
    return port;
  }

  /** Starts the broker and waits until it serves, calling {@code tick} while it waits. */
  synchronized void start(Consumer<String> tick) {
    List<String> command = new ArrayList<>(prefix);
    command.add("bash");
    command.add(script.toString());
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(env);
    builder.redirectErrorStream(true);
    builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the Kafka broker", e);
    }
    starts++;
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (startedCount() < starts) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the Kafka broker exited with " + process.exitValue() + "; its log: " + log);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the Kafka broker did not start in 2 min; its log: " + log);
      }
      tick.accept("");
      sleep(200);
    }
  }

  /** Stops the broker the way an orchestrator does: SIGTERM, a controlled shutdown. */
  synchronized void stop() {
    if (process == null || !process.isAlive()) {
      return;
    }
    process.descendants().forEach(ProcessHandle::destroy);
    process.destroy();
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  Path log() {
    return log;
  }

  private int startedCount() {
    try {
      if (!Files.exists(log)) {
        return 0;
      }
      String text = Files.readString(log);
      int count = 0;
      for (int at = text.indexOf(STARTED); at >= 0; at = text.indexOf(STARTED, at + 1)) {
        count++;
      }
      return count;
    } catch (IOException e) {
      return 0;
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  @Override
  public void close() {
    stop();
  }
}
