package io.faultline.core.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.CoreFindingTypes;
import io.faultline.core.finding.FindingType;
import io.faultline.core.finding.Incident;
import io.faultline.core.finding.Severity;
import org.junit.jupiter.api.Test;

class FindingExplanationTest {

  private static final String LONG_WHY =
      "The Netmarble RPS case: with one rx queue and RPS off, every NET_RX softirq ran on one core,"
          + " which saturated while the node as a whole stayed at 40 % CPU and its pods failed"
          + " their health checks.";

  @Test
  void printsTitleSeverityWhyWhatToDoIncidentAndDocsSectionWrappedForATerminal() {
    FindingType type =
        new FindingType(
            "RX_ON_ONE_CORE",
            Severity.CRITICAL,
            "All receive work lands on one CPU",
            LONG_WHY,
            "Set rps_cpus.",
            Incident.NETMARBLE_RPS);

    String text = FindingExplanation.of(type);

    assertThat(text)
        .isEqualTo(
            "RX_ON_ONE_CORE\n"
                + "  All receive work lands on one CPU\n"
                + "\n"
                + "Default severity: CRITICAL\n"
                + "\n"
                + "Why it matters:\n"
                + "  The Netmarble RPS case: with one rx queue and RPS off, every NET_RX softirq"
                + " ran on one core, which\n"
                + "  saturated while the node as a whole stayed at 40 % CPU and its pods failed"
                + " their health checks.\n"
                + "\n"
                + "What to do:\n"
                + "  Set rps_cpus.\n"
                + "\n"
                + "Incident:\n"
                + "  The Netmarble RPS case (docs/incidents.md#netmarble-rps)\n"
                + "\n"
                + "In the repository: docs/findings.md#rx_on_one_core\n");
  }

  @Test
  void aFindingFromNoIncidentHasNoIncidentLine() {
    String text = FindingExplanation.of(CoreFindingTypes.CONFIGURATION_REJECTED);

    assertThat(text)
        .startsWith("CONFIGURATION_REJECTED\n")
        .contains("Default severity: WARNING", "docs/findings.md#configuration_rejected")
        .doesNotContain("Incident");
  }

  @Test
  void theDocsReferenceNamesBothTheSectionAndTheCommand() {
    assertThat(CoreFindingTypes.CONFIGURATION_REJECTED.docsReference())
        .isEqualTo(
            "docs/findings.md#configuration_rejected or: java -jar faultline-agent.jar explain"
                + " CONFIGURATION_REJECTED");
  }
}
