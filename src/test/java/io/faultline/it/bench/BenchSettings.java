package io.faultline.it.bench;

/**
 * The sizes of one benchmark run: {@code full} (the published numbers, about 15 min on 2 cores;
 * Kafka runs of several seconds each, so JIT warm-up is not the measurement) or {@code quick} (a
 * few minutes, to try the harness). Chosen with {@code -Dfaultline.bench}.
 */
record BenchSettings(
    String mode,
    int clientRounds,
    int producerRecords,
    int cappedRecords,
    int cappedThroughput,
    int consumerRecords,
    int recordSize,
    int jooqRounds,
    int jooqSeconds,
    int startupRuns,
    int connections) {

  static BenchSettings of(String mode) {
    return switch (mode) {
      case "full" ->
          new BenchSettings("full", 5, 250_000, 120_000, 15_000, 250_000, 512, 5, 4, 5, 1000);
      case "quick" ->
          new BenchSettings("quick", 2, 20_000, 10_000, 5_000, 20_000, 512, 2, 1, 2, 100);
      default ->
          throw new IllegalArgumentException(
              "-Dfaultline.bench=" + mode + " is not a mode; use full or quick");
    };
  }
}
