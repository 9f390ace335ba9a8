package io.faultline.it.bench;

import io.faultline.it.bench.BenchJvm.Variant;
import io.faultline.it.servers.KafkaCluster;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * Producer and consumer throughput and latency in child JVMs against a real broker, without an
 * agent, with Faultline (every feature on), with the OpenTelemetry agent and with both. In each
 * round the variants run side by side and take turns at their measured windows ({@link
 * TakingTurns}), so that the machine's load drifts over every variant alike; each round starts one
 * variant later than the last ({@link StartupBenchmark#roundOrder}), so no variant always runs
 * right after the same other. The published run adds, to the capped producer's rounds, the agent as
 * it was before the cost work ({@link Variant#REFERENCE}); {@code ./benchmarks against <revision>}
 * runs chosen workloads with no agent, Faultline and Faultline built from that revision instead
 * ({@link ReferenceComparison}).
 */
final class ClientPerfBenchmark {

  /**
   * One workload's runs: {@code rounds.get(r).get(variant)}; {@code placement} says where the
   * children and the broker ran ({@link CpuPinning#description()}).
   */
  record Series(
      String name, String description, String placement, List<Map<Variant, PerfResult>> rounds) {

    double medianRecordsPerSecond(Variant v) {
      return Stats.median(rounds.stream().mapToDouble(r -> r.get(v).recordsPerSecond()).toArray());
    }

    double medianP99(Variant v) {
      return Stats.median(rounds.stream().mapToDouble(r -> r.get(v).p99()).toArray());
    }

    /** The variants of every round, in {@link Variant}'s order. */
    List<Variant> variants() {
      return List.copyOf(rounds.get(0).keySet());
    }

    /** The median over rounds of the per-round throughput ratio to no agent. */
    double medianThroughputRatio(Variant v) {
      return medianThroughputRatio(v, Variant.NO_AGENT);
    }

    /** The median over rounds of the per-round throughput ratio of {@code v} to {@code base}. */
    double medianThroughputRatio(Variant v, Variant base) {
      return medianRatio(v, base, PerfResult::recordsPerSecond);
    }

    /** The median over rounds of the per-round ratio of CPU per record to no agent's. */
    double medianCpuRatio(Variant v) {
      return medianCpuRatio(v, Variant.NO_AGENT);
    }

    /** The median over rounds of the per-round ratio of CPU per record to {@code base}'s. */
    double medianCpuRatio(Variant v, Variant base) {
      return medianRatio(v, base, PerfResult::cpuNanosPerRecord);
    }

    /** The median over rounds of the per-round p99 ratio to no agent. */
    double medianP99Ratio(Variant v) {
      return medianP99Ratio(v, Variant.NO_AGENT);
    }

    /** The median over rounds of the per-round p99 ratio of {@code v} to {@code base}. */
    double medianP99Ratio(Variant v, Variant base) {
      return medianRatio(v, base, p -> Math.max(1, p.p99()));
    }

    /** The per-round ratios of {@code measure} for {@code v} to {@code base}, in round order. */
    double[] ratios(Variant v, Variant base, ToDoubleFunction<PerfResult> measure) {
      return rounds.stream()
          .mapToDouble(
              r ->
                  measure.applyAsDouble(r.get(v))
                      / Math.max(1e-9, measure.applyAsDouble(r.get(base))))
          .toArray();
    }

    private double medianRatio(Variant v, Variant base, ToDoubleFunction<PerfResult> measure) {
      return Stats.median(ratios(v, base, measure));
    }
  }

  /** A workload, by the name {@code ./benchmarks against} takes. */
  enum Workload {
    CAPPED("capped"),
    UNCAPPED("uncapped"),
    CONSUMER("consumer");

    final String key;

    Workload(String key) {
      this.key = key;
    }

    /** The workloads named in {@code names}, comma-separated. */
    static Set<Workload> parse(String names) {
      Set<Workload> workloads = EnumSet.noneOf(Workload.class);
      for (String name : names.split(",")) {
        String key = name.strip();
        if (key.isEmpty()) {
          continue;
        }
        workloads.add(
            Arrays.stream(values())
                .filter(w -> w.key.equals(key))
                .findFirst()
                .orElseThrow(
                    () ->
                        new IllegalArgumentException(
                            "workload '"
                                + key
                                + "' is not one; name capped, uncapped or consumer,"
                                + " comma-separated")));
      }
      if (workloads.isEmpty()) {
        throw new IllegalArgumentException(
            "no workload named; name capped, uncapped or consumer, comma-separated");
      }
      return workloads;
    }
  }

  /** The capped producer's workload name. */
  static final String CAPPED_NAME = "producer, capped";

  /**
   * The least throughput ratio (to no agent, or to a reference build) {@code workload} keeps: a
   * capped run's throughput is the cap and must stay there; uncapped, an agent's CPU comes out of
   * throughput on two shared cores, hence the looser ratio.
   */
  static double minThroughputRatio(String workload) {
    return CAPPED_NAME.equals(workload) ? MIN_CAPPED_THROUGHPUT : MIN_THROUGHPUT;
  }

  // The goals' margins, to no agent in the published run and to a reference build.
  static final double MIN_CAPPED_THROUGHPUT = 0.99;

  static final double MIN_THROUGHPUT = 0.98;

  static final double MAX_P99_RATIO = 1.05;

  static final double MAX_CPU_RATIO = 1.03;

  /** The variants of the published run. */
  static final List<Variant> PUBLISHED =
      List.of(Variant.NO_AGENT, Variant.FAULTLINE, Variant.OTEL, Variant.BOTH);

  private final KafkaCluster kafka;
  private final BenchSettings settings;
  private final Map<Workload, List<Variant>> variants;

  /**
   * The published run: every workload with the {@link #PUBLISHED} variants, and, where {@code
   * cappedAgainstReference}, the capped producer with the {@link Variant#REFERENCE} build too (its
   * goal is to stay as it was before the cost work, so it is read against that build).
   */
  static ClientPerfBenchmark published(
      KafkaCluster kafka, BenchSettings settings, boolean cappedAgainstReference) {
    Map<Workload, List<Variant>> variants = new EnumMap<>(Workload.class);
    for (Workload w : Workload.values()) {
      variants.put(w, PUBLISHED);
    }
    if (cappedAgainstReference) {
      List<Variant> capped = new ArrayList<>(PUBLISHED);
      capped.add(Variant.REFERENCE);
      variants.put(Workload.CAPPED, capped);
    }
    return new ClientPerfBenchmark(kafka, settings, variants);
  }

  /** {@code workloads}, each with {@code variants}, which must include no agent. */
  ClientPerfBenchmark(
      KafkaCluster kafka, BenchSettings settings, List<Variant> variants, Set<Workload> workloads) {
    this(kafka, settings, sameFor(workloads, variants));
  }

  /** Each workload of {@code variants} with its variants, which must include no agent. */
  private ClientPerfBenchmark(
      KafkaCluster kafka, BenchSettings settings, Map<Workload, List<Variant>> variants) {
    variants.forEach(
        (workload, theirs) -> {
          if (!theirs.contains(Variant.NO_AGENT)) {
            throw new IllegalArgumentException(
                "the variants need no agent, the ratios' base: " + theirs);
          }
        });
    this.kafka = kafka;
    this.settings = settings;
    this.variants = Map.copyOf(variants);
  }

  private static Map<Workload, List<Variant>> sameFor(
      Set<Workload> workloads, List<Variant> variants) {
    Map<Workload, List<Variant>> map = new EnumMap<>(Workload.class);
    workloads.forEach(w -> map.put(w, List.copyOf(variants)));
    return map;
  }

  /** The runs of the workloads asked for: capped producer, uncapped producer, consumer. */
  List<Series> run() {
    try (CpuPinning pinning = CpuPinning.of(kafka)) {
      return run(pinning);
    }
  }

  private List<Series> run(CpuPinning pinning) {
    String capped = "bench-capped-" + System.nanoTime();
    String uncapped = "bench-uncapped-" + System.nanoTime();
    String prepared = "bench-consume-" + System.nanoTime();
    // The producers' rounds write tens of GB: the broker deletes all but the last few GB meanwhile.
    Map<String, String> bounded =
        Map.of(
            "retention.bytes", Long.toString(2L << 30), "segment.bytes", Integer.toString(1 << 29));
    String size = Integer.toString(settings.recordSize());
    if (variants.containsKey(Workload.CONSUMER)) {
      kafka.createTopic(prepared, 1);
      BenchJvm.run(
          BenchJvm.command(
              List.of("-Xmx512m"),
              ProducerPerf.class.getName(),
              kafka.bootstrapServers(),
              prepared,
              // the consumer's measured records and a poll's overshoot (its warm-up re-reads them)
              Integer.toString(settings.consumerRecords() + 1000),
              size,
              "-1"),
          300);
    }
    List<Series> series = new ArrayList<>();
    if (variants.containsKey(Workload.CAPPED)) {
      kafka.createTopic(capped, 1, bounded);
      series.add(
          series(
              pinning,
              Workload.CAPPED,
              CAPPED_NAME,
              settings.cappedRecords()
                  + " records of "
                  + size
                  + " B, acks=all, at most "
                  + settings.cappedThroughput()
                  + " records/s, after "
                  + settings.cappedWarmup()
                  + " warm-up records and until the JIT is quiet"
                  + pauseNote(settings),
              ProducerPerf.class.getName(),
              kafka.bootstrapServers(),
              capped,
              Integer.toString(settings.cappedRecords()),
              size,
              Integer.toString(settings.cappedThroughput()),
              Integer.toString(settings.cappedWarmup()),
              Integer.toString(settings.warmupMaxSeconds())));
    }
    if (variants.containsKey(Workload.UNCAPPED)) {
      kafka.createTopic(uncapped, 1, bounded);
      series.add(
          series(
              pinning,
              Workload.UNCAPPED,
              "producer, uncapped",
              settings.producerRecords()
                  + " records of "
                  + size
                  + " B, acks=all, no cap, after "
                  + settings.warmup(settings.producerRecords())
                  + " warm-up records and until the JIT is quiet"
                  + pauseNote(settings),
              ProducerPerf.class.getName(),
              kafka.bootstrapServers(),
              uncapped,
              Integer.toString(settings.producerRecords()),
              size,
              "-1",
              Integer.toString(settings.warmup(settings.producerRecords())),
              Integer.toString(settings.warmupMaxSeconds())));
    }
    if (variants.containsKey(Workload.CONSUMER)) {
      series.add(
          series(
              pinning,
              Workload.CONSUMER,
              "consumer",
              settings.consumerRecords()
                  + " records of "
                  + size
                  + " B from a prepared topic, read "
                  + (settings.consumerPasses() == 1 ? "once" : settings.consumerPasses() + " times")
                  + ", after "
                  + settings.warmup(settings.consumerRecords())
                  + " warm-up records, until the JIT is quiet"
                  + pauseNote(settings)
                  + ", and on to the topic's end;"
                  + " latency = per poll() that returned records",
              ConsumerPerf.class.getName(),
              kafka.bootstrapServers(),
              prepared,
              Integer.toString(settings.consumerRecords()),
              Integer.toString(settings.warmup(settings.consumerRecords())),
              Integer.toString(settings.warmupMaxSeconds()),
              Integer.toString(settings.consumerPasses())));
    }
    return series;
  }

  private Series series(
      CpuPinning pinning,
      Workload workload,
      String name,
      String description,
      String mainClass,
      String... args) {
    List<Map<Variant, PerfResult>> rounds = new ArrayList<>();
    List<String> turnArgs = new ArrayList<>(List.of(args));
    turnArgs.add(Integer.toString(settings.clientTurns()));
    for (int round = 0; round < settings.clientRounds(); round++) {
      List<Variant> order = StartupBenchmark.roundOrder(variants.get(workload), round);
      List<List<String>> commands = new ArrayList<>();
      for (Variant variant : order) {
        // A fixed heap: with -Xmx alone, the agent's classes take this small app past the default
        // MetaspaceSize at start, and G1 shrinks the heap at that cycle's remark (to 74 MB in a
        // run): twice the young collections for the rest of the run, an artifact of a tiny app
        // (a real service crosses that threshold on its own) that -Xms removes for every variant.
        List<String> options = new ArrayList<>(List.of("-Xms512m", "-Xmx512m"));
        options.addAll(pinning.jvmOptions());
        options.addAll(BenchJvm.childOptions());
        options.addAll(BenchJvm.agentOptions(variant));
        commands.add(
            pinning.wrap(BenchJvm.command(options, mainClass, turnArgs.toArray(String[]::new))));
      }
      List<String> outputs = TakingTurns.run(commands, settings.clientTurns(), 300);
      Map<Variant, PerfResult> results = new EnumMap<>(Variant.class);
      for (int i = 0; i < order.size(); i++) {
        BenchJvm.keepOutput(
            workload.name().toLowerCase(Locale.ROOT)
                + "-round"
                + (round + 1)
                + "-"
                + order.get(i).name().toLowerCase(Locale.ROOT),
            outputs.get(i));
        PerfResult result = PerfResult.parse(outputs.get(i));
        System.out.printf(
            "bench: %s round %d %s: %s%n", name, round + 1, order.get(i).label, result);
        results.put(order.get(i), result);
      }
      rounds.add(results);
    }
    return new Series(name, description, pinning.description(), rounds);
  }

  /** The warm-up's pause, in a workload's description: children that take turns pause once. */
  private static String pauseNote(BenchSettings settings) {
    return settings.clientTurns() > 0
        ? " before and after a " + Warmup.PAUSE_MILLIS / 1000 + " s pause"
        : "";
  }
}
