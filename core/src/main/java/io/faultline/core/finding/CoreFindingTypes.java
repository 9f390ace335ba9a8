package io.faultline.core.finding;

import io.faultline.core.config.ConfigProblem;
import io.faultline.core.config.FaultlineConfig;
import java.util.ArrayList;
import java.util.List;

/** The finding types of the core module itself. */
public final class CoreFindingTypes implements FindingCatalog {

  /** A configuration value was rejected, so the feature it belongs to is off. */
  public static final FindingType CONFIGURATION_REJECTED =
      new FindingType(
          "CONFIGURATION_REJECTED",
          Severity.WARNING,
          "Configuration input was rejected: what it meant to set is not in effect",
          "A mistyped value must not make a feature run on a setting nobody meant, so Faultline"
              + " turns that feature off instead. The service then runs without the protection or"
              + " diagnosis that was configured, and only this finding (and one line on stderr at"
              + " startup) says so.",
          "Fix the value where the finding's source says it was set (the message names the"
              + " expected format) and restart; the effective configuration on the status page"
              + " shows every key with its value and source.");

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public CoreFindingTypes() {}

  @Override
  public List<FindingType> findingTypes() {
    return List.of(CONFIGURATION_REJECTED);
  }

  /**
   * One {@link #CONFIGURATION_REJECTED} finding per configuration error, about the key (or the
   * source, when the error is not about one key), to raise with {@link Findings#replaceAll} under
   * the source name {@code config}.
   */
  public static List<Finding> fromConfig(FaultlineConfig config) {
    List<Finding> findings = new ArrayList<>();
    for (ConfigProblem problem : config.problems()) {
      if (problem.severity() == ConfigProblem.Level.ERROR) {
        findings.add(
            Finding.of(
                    CONFIGURATION_REJECTED,
                    problem.key().isEmpty() ? problem.source() : problem.key())
                .message(problem.message())
                .evidence("source", problem.source())
                .build());
      }
    }
    return findings;
  }
}
