package io.faultline.it.bench;

import io.faultline.it.bench.BenchJvm.Variant;
import io.faultline.it.servers.KafkaCluster;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Producer and consumer throughput and latency in child JVMs against a real broker, without an
 * agent, with Faultline (every feature on), with the OpenTelemetry agent and with both. In each
 * round the variants run side by side and take turns at their measured windows ({@link
 * TakingTurns}), so that the machine's load drifts over every variant alike; each round starts one
 * variant later than the last ({@link StartupBenchmark#roundOrder}), so no variant always runs
 * right after the same other.
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

    /** The median over rounds of the per-round throughput ratio to no agent. */
    double medianThroughputRatio(Variant v) {
      return Stats.median(
          rounds.stream()
              .mapToDouble(
                  r -> r.get(v).recordsPerSecond() / r.get(Variant.NO_AGENT).recordsPerSecond())
              .toArray());
    }

    /** The median over rounds of the per-round ratio of CPU per record to no agent's. */
    double medianCpuRatio(Variant v) {
      return Stats.median(
          rounds.stream()
              .mapToDouble(
                  r ->
                      r.get(v).cpuNanosPerRecord()
                          / Math.max(1e-9, r.get(Variant.NO_AGENT).cpuNanosPerRecord()))
              .toArray());
    }

    /** The median over rounds of the per-round p99 ratio to no agent. */
    double medianP99Ratio(Variant v) {
      return Stats.median(
          rounds.stream()
              .mapToDouble(
                  r -> (double) r.get(v).p99() / Math.max(1, r.get(Variant.NO_AGENT).p99()))
              .toArray());
    }
  }

  private final KafkaCluster kafka;
  private final BenchSettings settings;

  ClientPerfBenchmark(KafkaCluster kafka, BenchSettings settings) {
    this.kafka = kafka;
    this.settings = settings;
  }

  /** The capped and uncapped producer runs and the consumer runs. */
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
    kafka.createTopic(capped, 1, bounded);
    kafka.createTopic(uncapped, 1, bounded);
    kafka.createTopic(prepared, 1);
    String size = Integer.toString(settings.recordSize());
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
    List<Series> series = new ArrayList<>();
    series.add(
        series(
            pinning,
            "producer, capped",
            settings.cappedRecords()
                + " records of "
                + size
                + " B, acks=all, at most "
                + settings.cappedThroughput()
                + " records/s, after "
                + settings.cappedWarmup()
                + " warm-up records and until the JIT is quiet",
            ProducerPerf.class.getName(),
            kafka.bootstrapServers(),
            capped,
            Integer.toString(settings.cappedRecords()),
            size,
            Integer.toString(settings.cappedThroughput()),
            Integer.toString(settings.cappedWarmup()),
            Integer.toString(settings.warmupMaxSeconds())));
    series.add(
        series(
            pinning,
            "producer, uncapped",
            settings.producerRecords()
                + " records of "
                + size
                + " B, acks=all, no cap, after "
                + settings.warmup(settings.producerRecords())
                + " warm-up records and until the JIT is quiet",
            ProducerPerf.class.getName(),
            kafka.bootstrapServers(),
            uncapped,
            Integer.toString(settings.producerRecords()),
            size,
            "-1",
            Integer.toString(settings.warmup(settings.producerRecords())),
            Integer.toString(settings.warmupMaxSeconds())));
    series.add(
        series(
            pinning,
            "consumer",
            settings.consumerRecords()
                + " records of "
                + size
                + " B from a prepared topic, read "
                + (settings.consumerPasses() == 1 ? "once" : settings.consumerPasses() + " times")
                + ", after "
                + settings.warmup(settings.consumerRecords())
                + " warm-up records and until the JIT is quiet; latency = per poll() that"
                + " returned records",
            ConsumerPerf.class.getName(),
            kafka.bootstrapServers(),
            prepared,
            Integer.toString(settings.consumerRecords()),
            Integer.toString(settings.warmup(settings.consumerRecords())),
            Integer.toString(settings.warmupMaxSeconds()),
            Integer.toString(settings.consumerPasses())));
    return series;
  }

  private Series series(
      CpuPinning pinning, String name, String description, String mainClass, String... args) {
    List<Map<Variant, PerfResult>> rounds = new ArrayList<>();
    List<String> turnArgs = new ArrayList<>(List.of(args));
    turnArgs.add(Integer.toString(settings.clientTurns()));
    for (int round = 0; round < settings.clientRounds(); round++) {
      List<Variant> order = StartupBenchmark.roundOrder(List.of(Variant.values()), round);
      List<List<String>> commands = new ArrayList<>();
      for (Variant variant : order) {
        // A fixed heap: with -Xmx alone, the agent's classes take this small app past the default
        // MetaspaceSize at start, and G1 shrinks the heap at that cycle's remark (to 74 MB in a
        // run): twice the young collections for the rest of the run, an artifact of a tiny app
        // (a real service crosses that threshold on its own) that -Xms removes for every variant.
        List<String> options = new ArrayList<>(List.of("-Xms512m", "-Xmx512m"));
        options.addAll(pinning.jvmOptions());
        options.addAll(BenchJvm.agentOptions(variant));
        commands.add(
            pinning.wrap(BenchJvm.command(options, mainClass, turnArgs.toArray(String[]::new))));
      }
      List<String> outputs = TakingTurns.run(commands, settings.clientTurns(), 300);
      Map<Variant, PerfResult> results = new EnumMap<>(Variant.class);
      for (int i = 0; i < order.size(); i++) {
        PerfResult result = PerfResult.parse(outputs.get(i));
        System.out.printf(
            "bench: %s round %d %s: %s%n", name, round + 1, order.get(i).label, result);
        results.put(order.get(i), result);
      }
      rounds.add(results);
    }
    return new Series(name, description, pinning.description(), rounds);
  }
}
