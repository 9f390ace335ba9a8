package io.faultline.it.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Writes a soak's CSV and chart and prints its summary table. */
final class SoakReport {

  private SoakReport() {}

  static void write(Soak.Run run, Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(
        dir.resolve("soak.csv"),
        SoakSample.CSV_HEADER
            + "\n"
            + run.samples().stream().map(SoakSample::csv).collect(Collectors.joining("\n"))
            + "\n");
    String title =
        String.format(
            Locale.ROOT,
            "Faultline soak: %d min %s, sampled every 10 s (grey: warm-up; red: faults)",
            run.schedule().total.toMinutes(),
            run.withFaults() ? "with faults" : "without faults");
    SoakChart.write(run, title, dir.resolve("soak.png"));
    System.out.println(summary(run));
    System.out.println("SOAK wrote " + dir.resolve("soak.csv") + " and " + dir.resolve("soak.png"));
  }

  static String summary(Soak.Run run) {
    List<SoakSample> afterWarmUp = SoakChecks.afterWarmUp(run);
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%nSOAK summary: %d samples, %d after the warm-up of %d s%n",
            run.samples().size(),
            afterWarmUp.size(),
            run.schedule().warmUp.toSeconds()));
    out.append("| series (after the warm-up) | min | max | max - min | median |\n");
    out.append("|---|---|---|---|---|\n");
    for (SoakSample.Series s : SoakSample.Series.values()) {
      List<SoakSample> steady =
          s == SoakSample.Series.SERIES ? SoakChecks.settled(run) : afterWarmUp;
      double[] v = steady.stream().mapToDouble(s::of).sorted().toArray();
      double median = v.length == 0 ? Double.NaN : v[v.length / 2];
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %.1f | %.1f | %.1f | %.1f |%n",
              s.title + (steady == afterWarmUp ? "" : " (settled, see the bands)"),
              s.min(steady),
              s.max(steady),
              s.max(steady) - s.min(steady),
              median));
    }
    out.append(SoakChecks.bands()).append('\n');
    out.append("faults:\n");
    run.notes().forEach(n -> out.append("  ").append(n).append('\n'));
    out.append("finding spells (first - last seen, s; cause):\n");
    for (FindingSpells.Spell spell : run.findings().all()) {
      Soak.FaultWindow cause = SoakChecks.cause(run, spell);
      out.append(
          String.format(
              Locale.ROOT,
              "  %s: %.0f - %.0f%s; %s%n",
              spell.finding(),
              spell.first(),
              spell.last(),
              spell.cleared() ? "" : " (still active)",
              !spell.aboutTheService()
                  ? "about the host: reported, not judged"
                  : spell.finding().startsWith(SoakChecks.BY_DESIGN)
                      ? "the service's nesting, by design"
                      : cause == null
                          ? "no fault before it"
                          : String.format(
                              Locale.ROOT,
                              "%s %.0f-%.0f, last seen %+.0f s after it ended",
                              cause.name(),
                              cause.start(),
                              cause.end(),
                              spell.last() - cause.end())));
    }
    return out.toString();
  }
}
