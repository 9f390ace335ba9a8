package io.faultline.it.bench;

import io.faultline.it.bench.BenchJvm.Variant;
import io.faultline.it.servers.KafkaCluster;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The agent's heap with {@code n} producers, each connected to a real broker: heap in use after GC
 * with and without the agent (the difference is everything the agent holds, its libraries' classes'
 * statics included), and the shallow size of the instances of Faultline's own classes (shaded
 * libraries included) from {@code jcmd GC.class_histogram}, and the number of broker connections
 * the agent tracked.
 */
final class ConnectionMemoryBenchmark {

  /** The measurement for one variant. */
  record Result(
      String variant, long heapBytes, long faultlineInstanceBytes, long faultlineInstances) {}

  private static final Pattern PORT = Pattern.compile("prometheus\\.port=(\\d+)");

  private final KafkaCluster kafka;
  private final BenchSettings settings;

  ConnectionMemoryBenchmark(KafkaCluster kafka, BenchSettings settings) {
    this.kafka = kafka;
    this.settings = settings;
  }

  /** The agent's endpoint port in {@code options}, if it has one open. */
  static Optional<Integer> endpointPort(List<String> options) {
    for (String option : options) {
      Matcher m = PORT.matcher(option);
      if (option.startsWith("-javaagent:") && m.find() && Integer.parseInt(m.group(1)) > 0) {
        return Optional.of(Integer.parseInt(m.group(1)));
      }
    }
    return Optional.empty();
  }

  List<Result> run() throws Exception {
    String topic = "bench-many-" + System.nanoTime();
    kafka.createTopic(topic, 1);
    List<Result> results = new ArrayList<>();
    for (Variant v : List.of(Variant.NO_AGENT, Variant.FAULTLINE)) {
      List<String> options = new ArrayList<>(List.of("-Xmx2g", "-Xss256k"));
      options.addAll(BenchJvm.agentOptions(v));
      Result r = measure(v.label, options, topic);
      System.out.println("bench: memory " + r);
      results.add(r);
    }
    return results;
  }

  private Result measure(String label, List<String> options, String topic) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(kafka.bootstrapServers(), topic, Integer.toString(settings.connections())));
    // A scraped service's agent holds its Prometheus registry too: scrape once before the reading.
    endpointPort(options).ifPresent(port -> args.add("http://127.0.0.1:" + port + "/metrics"));
    List<String> command =
        BenchJvm.command(options, ManyConnections.class.getName(), args.toArray(String[]::new));
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      long heap = -1;
      while ((line = out.readLine()) != null) {
        if (line.startsWith("ready ")) {
          heap = HeapAfterGc.parse(line);
          break;
        }
      }
      if (heap < 0) {
        throw new IllegalStateException("the child ended before it was ready: " + command);
      }
      long[] faultline = faultlineHistogram(p.pid(), label);
      p.getOutputStream().close();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
      return new Result(label, heap, faultline[1], faultline[0]);
    } finally {
      if (p.isAlive()) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /** {instances, bytes} of classes named io.faultline.* in the child's live heap. */
  private static long[] faultlineHistogram(long pid, String label)
      throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process j =
        new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.class_histogram")
            .redirectErrorStream(true)
            .start();
    String text = new String(j.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    j.waitFor(60, TimeUnit.SECONDS);
    // Kept whole, to compare the variants class by class (what the agent's heap is made of).
    Path saved =
        Path.of(
            "target", "benchmarks", "memory-histogram-" + label.replaceAll("\\W+", "-") + ".txt");
    Files.createDirectories(saved.getParent());
    Files.writeString(saved, text);
    long instances = 0;
    long bytes = 0;
    for (String line : text.split("\n")) {
      // "   1:  123  4567  io.faultline.Foo (java.base@17)"
      String[] f = line.strip().split("\\s+");
      if (f.length >= 4 && f[0].endsWith(":") && f[3].startsWith("io.faultline.")) {
        instances += Long.parseLong(f[1]);
        bytes += Long.parseLong(f[2]);
      }
    }
    return new long[] {instances, bytes};
  }
}
