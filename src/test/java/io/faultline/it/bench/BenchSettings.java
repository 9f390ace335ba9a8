package io.faultline.it.bench;

/**
 * The sizes of one benchmark run: {@code full} (the published numbers, 70-110 min on 2 cores; Kafka
 * runs of several seconds each after a warm-up, so JIT compilation is not the measurement) or
 * {@code quick} (a few minutes, to try the harness). Chosen with {@code -Dfaultline.bench}.
 *
 * <p>{@code warmupPercent}: each Kafka child first sends (or reads) this share of its measured
 * records outside the measurement, as Kafka's {@code ProducerPerformance --warmup-records} does,
 * then goes on until its JIT is quiet, for at most {@code warmupMaxSeconds} ({@link Warmup}; the
 * capped producer sends for at least {@code cappedWarmupSeconds} first, {@link #cappedWarmup}): a
 * child JVM's first seconds are JIT compilation (an agent's woven code and its own classes too),
 * which the start-up benchmark measures on its own.
 *
 * <p>{@code full}'s capped producer measures 32 s of sending: an agent's periodic work (a sweep
 * every 30 s) then counts at its true rate, where a window of a few seconds caught it whole or not
 * at all.
 *
 * <p>{@code clientTurns}: the Kafka workloads' variants of one round run side by side and take
 * turns at their measured windows, each window in this many turns ({@link TakingTurns}).
 *
 * <p>{@code memoryRounds}: the memory part's variants alternate in this many rounds, a fresh child
 * each ({@link ConnectionMemoryBenchmark}).
 *
 * <p>{@code jooqRounds}, {@code startupRuns}: 15 in {@code full}. A jOOQ row's rounds spread by
 * several percent and a start-up row's by a few hundred milliseconds, more than those rows' margins
 * to their goals; with 9, a row's median crossed its goal from one run of the same agent to the
 * next. Each round is about a minute of the run, so these two get the extra rounds; the Kafka
 * workloads' rounds are several minutes each.
 *
 * <p>{@code consumerPasses}: the consumer's measurement reads its prepared topic of {@code
 * consumerRecords} records this many times over, for a window of several seconds from a topic that
 * is quick to prepare.
 */
record BenchSettings(
    String mode,
    int clientRounds,
    int clientTurns,
    int producerRecords,
    int cappedRecords,
    int cappedThroughput,
    int consumerRecords,
    int consumerPasses,
    int recordSize,
    int jooqRounds,
    int jooqSeconds,
    int startupRuns,
    int connections,
    int memoryRounds,
    int warmupPercent,
    int warmupMaxSeconds,
    int cappedWarmupSeconds) {

  /** The warm-up records for a run of {@code measured} records. */
  int warmup(int measured) {
    return (int) ((long) measured * warmupPercent / 100);
  }

  /**
   * The capped producer's warm-up records: at least {@code cappedWarmupSeconds} of sending. At its
   * pace a client's methods called once per request reach C2 only 15-25 s after start, and a
   * warm-up shorter than that left them to be compiled in the measured window, the woven ones of an
   * agent's run most, with the I/O thread running slower code meanwhile.
   */
  int cappedWarmup() {
    return Math.max(warmup(cappedRecords), cappedThroughput * cappedWarmupSeconds);
  }

  /**
   * This mode's settings with {@code rounds} Kafka rounds in place of its own: {@code
   * -Dfaultline.bench.client-rounds}, to look closer at one workload's spread.
   */
  BenchSettings withClientRounds(int rounds) {
    return new BenchSettings(
        mode,
        rounds,
        clientTurns,
        producerRecords,
        cappedRecords,
        cappedThroughput,
        consumerRecords,
        consumerPasses,
        recordSize,
        jooqRounds,
        jooqSeconds,
        startupRuns,
        connections,
        memoryRounds,
        warmupPercent,
        warmupMaxSeconds,
        cappedWarmupSeconds);
  }

  /** {@code -Dfaultline.bench.client-rounds}'s value, read as a number of rounds. */
  static int rounds(String value) {
    try {
      int rounds = Integer.parseInt(value.strip());
      if (rounds >= 1) {
        return rounds;
      }
    } catch (NumberFormatException notANumber) {
      // the message below names it
    }
    throw new IllegalArgumentException(
        "-Dfaultline.bench.client-rounds=" + value + " is not a number of rounds; give 1 or more");
  }

  static BenchSettings of(String mode) {
    return switch (mode) {
      case "full" ->
          new BenchSettings(
              "full", 5, 6, 2_000_000, 480_000, 15_000, 3_000_000, 5, 512, 15, 5, 15, 1000, 3, 100,
              60, 30);
      case "quick" ->
          new BenchSettings(
              "quick", 2, 2, 20_000, 10_000, 5_000, 20_000, 1, 512, 2, 1, 2, 100, 2, 25, 5, 0);
      default ->
          throw new IllegalArgumentException(
              "-Dfaultline.bench=" + mode + " is not a mode; use full or quick");
    };
  }
}
