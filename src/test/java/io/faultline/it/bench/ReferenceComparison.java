package io.faultline.it.bench;

import io.faultline.it.bench.BenchJvm.Variant;
import io.faultline.it.bench.ClientPerfBenchmark.Series;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The report of {@code ./benchmarks against <revision>}: this build's agent against one built from
 * an earlier revision (the reference), in the same rounds as no agent, so that a change's cost is
 * read against the agent it replaces and not only against no agent. A ratio to the reference
 * cancels what both builds share (the JVM's agent machinery, the agent's threads), so it moves less
 * from round to round than either build's ratio to no agent.
 */
final class ReferenceComparison {

  private final List<Series> series;
  private final String reference;

  /**
   * @param series the workloads' runs, each with no agent, Faultline and the reference
   * @param reference how the reference build is named: its revision
   */
  ReferenceComparison(List<Series> series, String reference) {
    for (Series s : series) {
      if (!s.variants().containsAll(List.of(Variant.FAULTLINE, Variant.REFERENCE))) {
        throw new IllegalArgumentException(
            s.name() + " was run without Faultline or its reference: " + s.variants());
      }
    }
    this.series = List.copyOf(series);
    this.reference = reference;
  }

  /** Markdown: the summary table, then each workload's rounds. */
  String render(String command, String machine) {
    StringBuilder b = new StringBuilder();
    b.append("### Faultline against ").append(reference).append("\n\n");
    b.append("```\n").append(command).append("\n```\n\n").append(machine).append('\n');
    b.append(
        "Each ratio is this build's agent (*Faultline agent*) to the reference build's in the same"
            + " round, listed round by round, and their median; *÷ no agent* gives both builds'"
            + " medians to no agent. A workload reads *unchanged or better* where the medians"
            + " keep the goals' margins: CPU per record at most "
            + fmt(ClientPerfBenchmark.MAX_CPU_RATIO)
            + " ×, p99 at most "
            + fmt(ClientPerfBenchmark.MAX_P99_RATIO)
            + " ×, throughput at least "
            + fmt(ClientPerfBenchmark.MIN_CAPPED_THROUGHPUT)
            + " × (capped) or "
            + fmt(ClientPerfBenchmark.MIN_THROUGHPUT)
            + " × the reference's.\n\n");
    b.append(
        "| workload | CPU per record ÷ reference, rounds | median | p99 ÷ reference, rounds |"
            + " median | records/s ÷ reference | CPU ÷ no agent, this build / reference |"
            + " |\n|---|---|---|---|---|---|---|---|\n");
    for (Series s : series) {
      double[] cpu = s.ratios(Variant.FAULTLINE, Variant.REFERENCE, PerfResult::cpuNanosPerRecord);
      double[] p99 = s.ratios(Variant.FAULTLINE, Variant.REFERENCE, p -> Math.max(1, p.p99()));
      double throughput = s.medianThroughputRatio(Variant.FAULTLINE, Variant.REFERENCE);
      b.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s | %s | %s / %s | %s |%n",
              s.name(),
              list(cpu),
              fmt(Stats.median(cpu)),
              list(p99),
              fmt(Stats.median(p99)),
              fmt(throughput),
              fmt(s.medianCpuRatio(Variant.FAULTLINE)),
              fmt(s.medianCpuRatio(Variant.REFERENCE)),
              unchanged(s) ? "unchanged or better" : "**worse**"));
    }
    for (Series s : series) {
      b.append("\n#### ").append(s.name()).append("\n\n").append(s.description()).append("\n\n");
      b.append(BenchmarkReport.roundsTable(s));
    }
    return b.toString();
  }

  /** Whether this build's medians keep the goals' margins to the reference's. */
  static boolean unchanged(Series s) {
    return s.medianCpuRatio(Variant.FAULTLINE, Variant.REFERENCE)
            <= ClientPerfBenchmark.MAX_CPU_RATIO
        && s.medianP99Ratio(Variant.FAULTLINE, Variant.REFERENCE)
            <= ClientPerfBenchmark.MAX_P99_RATIO
        && s.medianThroughputRatio(Variant.FAULTLINE, Variant.REFERENCE)
            >= ClientPerfBenchmark.minThroughputRatio(s.name());
  }

  private static String list(double[] values) {
    return Arrays.stream(values)
        .mapToObj(ReferenceComparison::fmt)
        .collect(Collectors.joining(", "));
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }
}
