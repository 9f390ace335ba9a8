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
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The agent's heap with {@code n} producers, each connected to a real broker: heap in use after GC
 * with and without the agent (the difference is everything the agent holds, its libraries' classes'
 * statics included), the live objects {@code jcmd GC.class_histogram} counts (the same figure from
 * the JVM's own count, to check the first), and the shallow size of the instances of Faultline's
 * own classes (shaded libraries included). The variants alternate over several rounds, each a fresh
 * child; the agent's heap is the median of the rounds' differences.
 */
final class ConnectionMemoryBenchmark {

  /**
   * The measurement for one variant in one round.
   *
   * @param heapBytes heap in use after full collections ({@link HeapAfterGc})
   * @param liveBytes the live objects' bytes, from the class histogram
   */
  record Result(
      String variant,
      long heapBytes,
      long liveBytes,
      long faultlineInstanceBytes,
      long faultlineInstances) {}

  /**
   * Every round's readings.
   *
   * @param rounds one pair of results per round: no agent's, then the agent's, whichever ran first
   */
  record Rounds(List<List<Result>> rounds) {

    /** The agent's heap (heap after GC, the agent's less no agent's) in each round. */
    List<Long> addedBytes() {
      return rounds.stream().map(r -> r.get(1).heapBytes() - r.get(0).heapBytes()).toList();
    }

    /** The agent's live objects (class histogram) in each round. */
    List<Long> addedLiveBytes() {
      return rounds.stream().map(r -> r.get(1).liveBytes() - r.get(0).liveBytes()).toList();
    }

    /** The median of {@link #addedBytes()}. */
    double medianAddedBytes() {
      return Stats.median(addedBytes().stream().mapToDouble(Long::doubleValue).toArray());
    }

    /** The median of {@link #addedLiveBytes()}. */
    double medianAddedLiveBytes() {
      return Stats.median(addedLiveBytes().stream().mapToDouble(Long::doubleValue).toArray());
    }
  }

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

  Rounds run() throws Exception {
    String topic = "bench-many-" + System.nanoTime();
    kafka.createTopic(topic, 1);
    List<List<Result>> rounds = new ArrayList<>();
    for (int round = 0; round < settings.memoryRounds(); round++) {
      // Every other round the agent goes first, so neither variant always follows the other.
      List<Variant> order =
          round % 2 == 0
              ? List.of(Variant.NO_AGENT, Variant.FAULTLINE)
              : List.of(Variant.FAULTLINE, Variant.NO_AGENT);
      Result[] pair = new Result[2];
      for (Variant v : order) {
        List<String> options =
            new ArrayList<>(List.of("-Xmx2g", "-Xss256k", HeapAfterGc.EXACT_FULL_GC));
        options.addAll(BenchJvm.agentOptions(v));
        Result r = measure(v.label, options, topic);
        System.out.println("bench: memory round " + (round + 1) + " " + r);
        pair[v == Variant.NO_AGENT ? 0 : 1] = r;
      }
      rounds.add(List.of(pair));
    }
    Rounds result = new Rounds(rounds);
    System.out.printf(
        Locale.ROOT,
        "bench: memory agent heap median %.1f MiB (live objects %.1f MiB)%n",
        result.medianAddedBytes() / 1048576.0,
        result.medianAddedLiveBytes() / 1048576.0);
    return result;
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
      long[] histogram = histogram(p.pid(), label);
      p.getOutputStream().close();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
      return new Result(label, heap, histogram[2], histogram[1], histogram[0]);
    } finally {
      if (p.isAlive()) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * {instances, bytes} of classes named io.faultline.* in the child's live heap, then the bytes of
   * all its live objects.
   */
  private static long[] histogram(long pid, String label) throws IOException, InterruptedException {
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
    return histogramFigures(text);
  }

  /** See {@link #histogram}; from the text of {@code jcmd GC.class_histogram}. */
  static long[] histogramFigures(String text) {
    long instances = 0;
    long bytes = 0;
    long total = -1;
    for (String line : text.split("\n")) {
      // "   1:  123  4567  io.faultline.Foo (java.base@17)", last "Total  456  789"
      String[] f = line.strip().split("\\s+");
      if (f.length >= 4 && f[0].endsWith(":") && f[3].startsWith("io.faultline.")) {
        instances += Long.parseLong(f[1]);
        bytes += Long.parseLong(f[2]);
      } else if (f.length == 3 && f[0].equals("Total")) {
        total = Long.parseLong(f[2]);
      }
    }
    if (total < 0) {
      throw new IllegalStateException("no Total line in the class histogram:\n" + text);
    }
    return new long[] {instances, bytes, total};
  }
}
