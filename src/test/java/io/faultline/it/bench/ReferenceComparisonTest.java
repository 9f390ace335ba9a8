package io.faultline.it.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.faultline.it.bench.BenchJvm.Variant;
import io.faultline.it.bench.ClientPerfBenchmark.Series;
import io.faultline.it.bench.ClientPerfBenchmark.Workload;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./benchmarks against} (its workloads, ratios and verdict) and the published run's capped
 * producer read against the reference build, from figures given here.
 */
class ReferenceComparisonTest {

  @Test
  void eachRoundIsReadAgainstTheReferenceInTheSameRound() {
    Series capped =
        series(
            ClientPerfBenchmark.CAPPED_NAME,
            round(5_000, 5_100, 6_000, 4_000),
            round(6_000, 6_200, 6_100, 4_200),
            round(5_200, 5_150, 6_000, 4_100));

    String report = new ReferenceComparison(List.of(capped), "v1 (abc1234)").render("cmd", "");

    // CPU 5100/6000, 6200/6100, 5150/6000 and p99 4000/4000, 4200/4000, 4100/4000: their medians.
    assertThat(report)
        .startsWith("### Faultline against v1 (abc1234)\n\n```\ncmd\n```\n")
        .contains(
            "| producer, capped | 0.850, 1.016, 0.858 | 0.858 | 1.000, 1.050, 1.025 | 1.025 |"
                + " 1.000 | 1.020 / 1.154 | unchanged or better |")
        .contains("| 2 | Faultline agent, reference build |")
        .doesNotContain("OpenTelemetry");
  }

  @Test
  void aBuildCostlierThanItsReferenceBeyondTheGoalsMarginReadsWorse() {
    Series cpu =
        series(
            ClientPerfBenchmark.CAPPED_NAME,
            round(5_000, 5_600, 5_000, 4_000),
            round(5_000, 5_500, 5_100, 4_000),
            round(5_000, 5_200, 5_100, 4_000));
    Series p99 =
        series(
            "producer, uncapped",
            round(5_000, 5_000, 5_000, 4_300),
            round(5_000, 5_000, 5_000, 4_300),
            round(5_000, 5_000, 5_000, 4_000));

    assertThat(ReferenceComparison.unchanged(cpu)).isFalse();
    assertThat(ReferenceComparison.unchanged(p99)).isFalse();
    assertThat(new ReferenceComparison(List.of(cpu), "r").render("cmd", ""))
        .contains("| **worse** |");
  }

  @Test
  void aRunWithoutTheReferenceIsRefusedNamingWhatItHad() {
    Map<Variant, PerfResult> r = new EnumMap<>(Variant.class);
    r.put(Variant.NO_AGENT, result(5_000, 4_000));
    r.put(Variant.FAULTLINE, result(5_000, 4_000));
    Series without = new Series("consumer", "", "", List.of(r));

    assertThatThrownBy(() -> new ReferenceComparison(List.of(without), "r"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("consumer was run without Faultline or its reference");
  }

  @Test
  void workloadsAreNamedCommaSeparatedAndAnUnknownOneIsRefusedWithTheNames() {
    assertThat(Workload.parse("capped, consumer"))
        .isEqualTo(EnumSet.of(Workload.CAPPED, Workload.CONSUMER));
    assertThatThrownBy(() -> Workload.parse("capped,producer"))
        .hasMessage(
            "workload 'producer' is not one; name capped, uncapped or consumer, comma-separated");
    assertThatThrownBy(() -> Workload.parse(" , ")).hasMessageStartingWith("no workload named");
  }

  @Test
  void theVariantsNeedNoAgentTheRatiosBase() {
    assertThatThrownBy(
            () ->
                new ClientPerfBenchmark(
                    null,
                    BenchSettings.of("quick"),
                    List.of(Variant.FAULTLINE, Variant.REFERENCE),
                    EnumSet.of(Workload.CAPPED)))
        .hasMessageContaining("the variants need no agent");
  }

  @Test
  void thePublishedCappedRowsReadAgainstTheReferenceWithNoAgentAlongside(@TempDir Path docs)
      throws Exception {
    Series capped =
        series(
            ClientPerfBenchmark.CAPPED_NAME,
            withOtel(round(5_000, 5_400, 6_000, 4_000)),
            withOtel(round(5_000, 5_500, 6_000, 4_000)),
            withOtel(round(5_000, 5_300, 6_000, 4_000)));
    Map<Variant, PerfResult> uncappedRound = withOtel(round(5_000, 5_100, 5_000, 4_000));
    uncappedRound.remove(Variant.REFERENCE);
    Series uncapped = series("producer, uncapped", uncappedRound);

    String report =
        new BenchmarkReport(
                new BenchmarkReport.Measurements(
                    BenchSettings.of("quick"),
                    "./benchmarks quick",
                    "machine\n",
                    List.of(capped, uncapped),
                    "e97c3de",
                    Map.of(),
                    Map.of(),
                    false,
                    List.of(),
                    1 << 20,
                    1 << 20,
                    new ConnectionMemoryBenchmark.Rounds(List.of()),
                    1),
                docs)
            .render();

    // Capped CPU 5400/6000, 5500/6000, 5300/6000 (median 0.900, rounds 0.883 to 0.917) and
    // 1.08-1.10 to no agent: the goal reads against the earlier build; the uncapped producer's
    // (one round, so no spread) still against no agent.
    assertThat(report)
        .contains(
            "| producer, capped: CPU per record with Faultline, steady state"
                + " | ≤ 1.03 × the agent as of `e97c3de`"
                + " | 0.900 (rounds 0.883 to 0.917; ÷ no agent 1.080) | met |")
        .contains(
            "| producer, capped: throughput with Faultline | ≥ 0.99 × the agent as of `e97c3de`"
                + " | 1.000 (rounds 1.000 to 1.000; ÷ no agent 1.000) | met |")
        .contains(
            "| producer, uncapped: CPU per record with Faultline, steady state"
                + " | ≤ 1.03 × no agent | 1.020 | met |")
        .contains(
            "a fifth child, *Faultline agent, reference build*: the agent built from `e97c3de`")
        .contains("| 1 | Faultline agent, reference build |");
  }

  @SafeVarargs
  private static Series series(String name, Map<Variant, PerfResult>... rounds) {
    return new Series(name, "", "", List.of(rounds));
  }

  /** {@code round} with both OpenTelemetry variants, at twice no agent's CPU per record. */
  private static Map<Variant, PerfResult> withOtel(Map<Variant, PerfResult> round) {
    long cpu = round.get(Variant.NO_AGENT).cpuNanos() / round.get(Variant.NO_AGENT).records();
    round.put(Variant.OTEL, result(2 * cpu, 8_000));
    round.put(Variant.BOTH, result(2 * cpu, 8_000));
    return round;
  }

  /**
   * A round's CPU per record (ns) for no agent, Faultline and the reference, and Faultline's p99.
   */
  private static Map<Variant, PerfResult> round(
      long noAgentCpu, long faultlineCpu, long referenceCpu, long faultlineP99) {
    Map<Variant, PerfResult> r = new EnumMap<>(Variant.class);
    r.put(Variant.NO_AGENT, result(noAgentCpu, 4_000));
    r.put(Variant.FAULTLINE, result(faultlineCpu, faultlineP99));
    r.put(Variant.REFERENCE, result(referenceCpu, 4_000));
    return r;
  }

  private static PerfResult result(long cpuNanosPerRecord, long p99) {
    long records = 1_000;
    return new PerfResult(
        records,
        1_000_000_000L,
        records * 512,
        900,
        p99,
        2 * p99,
        0,
        cpuNanosPerRecord * records,
        30_000_000_000L,
        true,
        0);
  }
}
