package io.faultline.core.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.config.ConfigKey;
import io.faultline.core.config.CoreConfigKeys;
import io.faultline.core.finding.CoreFindingTypes;
import io.faultline.core.finding.FindingType;
import io.faultline.core.finding.Incident;
import io.faultline.core.finding.Severity;
import io.faultline.core.metrics.CoreMeters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceDocsTest {

  @TempDir Path dir;

  private final ReferenceDocs docs = ReferenceDocs.fromClassPath();

  @Test
  void configurationListsCoreKeysWithTypeDefaultFeatureAndEnvironmentName() {
    assertThat(docs.configuration())
        .contains(
            "| `findings.log-interval` | duration | `10m` | `findings` |"
                + " `FAULTLINE_FINDINGS_LOG__INTERVAL` | A finding is logged")
        .contains("| `config` | string | (empty) | `core` | `FAULTLINE_CONFIG` |")
        .contains("## Agent argument syntax")
        .contains(ReferenceDocs.REGENERATE);
  }

  @Test
  void everyFindingHasASectionWhoseGitHubAnchorIsItsDocsAnchor() {
    String findings = docs.findings();

    FindingType type = CoreFindingTypes.CONFIGURATION_REJECTED;
    assertThat(findings).contains("\n## CONFIGURATION_REJECTED\n");
    assertThat(findings).contains(type.why()).contains(type.remediation()).contains(type.title());
    Matcher headings = Pattern.compile("(?m)^## (.+)$").matcher(findings);
    List<String> anchors = headings.results().map(m -> gitHubSlug(m.group(1))).toList();
    assertThat(anchors).contains(type.docsAnchor().substring("docs/findings.md#".length()));
  }

  @Test
  void aFindingsSectionLinksItsIncidentsAndNamesTheExplainCommand() {
    FindingType type =
        new FindingType(
            "SAMPLE_FINDING",
            Severity.WARNING,
            "t",
            "w",
            "r",
            List.of(Incident.LINE_KAFKA, Incident.TENCENT_CKAFKA));
    String findings = new ReferenceDocs(List.of(), List.of(type), List.of()).findings();

    assertThat(findings)
        .contains(
            "\n**Incident.** [The LINE Kafka incident](incidents.md#line-kafka), [The Tencent CKafka"
                + " incident](incidents.md#tencent-ckafka)\n")
        .contains("\nFrom the agent jar: `java -jar faultline-agent.jar explain SAMPLE_FINDING`\n");
    assertThat(docs.findings())
        .contains(
            "\n**Incident.** [The Elastic Beanstalk port exhaustion]"
                + "(incidents.md#elastic-beanstalk-ports)\n");
  }

  @Test
  void metricsListsCoreMetersWithTheirDescriptions() {
    assertThat(docs.metrics())
        .contains(
            "| `faultline.findings.active` | gauge | findings | `id`, `severity` | `findings` | "
                + CoreMeters.FINDINGS_ACTIVE.description()
                + " |")
        .contains("| `faultline.findings.raised` | counter |");
  }

  @Test
  void outputIsSortedAndCellsCannotBreakTheTable() {
    ReferenceDocs given =
        new ReferenceDocs(
            List.of(
                ConfigKey.string("b.key", "x|y", "b", "two\nlines | pipe"),
                ConfigKey.bool("a", true, "a", "switch"),
                CoreConfigKeys.CONFIG),
            List.of(
                new FindingType("ZED", Severity.INFO, "z", "w", "r"),
                new FindingType("ALPHA", Severity.CRITICAL, "a", "w", "r")),
            List.of());

    String configuration = given.configuration();
    assertThat(configuration.indexOf("| `a` |")).isLessThan(configuration.indexOf("| `b.key` |"));
    assertThat(configuration).contains("two lines \\| pipe").contains("`x\\|y`");
    assertThat(configuration).contains("| `a` | `a` | `a` |").contains("| `b` | none | `b.key` |");
    String findings = given.findings();
    assertThat(findings.indexOf("## ALPHA")).isLessThan(findings.indexOf("## ZED"));
    assertThat(given.render()).isEqualTo(given.render());
  }

  @Test
  void writtenFilesShowNoDifferenceAndAnEditedOneDoes() throws IOException {
    assertThat(docs.differencesFrom(dir)).hasSize(3).allMatch(d -> d.contains("is missing"));

    docs.writeTo(dir);
    assertThat(docs.differencesFrom(dir)).isEmpty();

    Files.writeString(dir.resolve(ReferenceDocs.METRICS), "edited by hand\n");
    assertThat(docs.differencesFrom(dir))
        .singleElement()
        .satisfies(
            d -> assertThat(d).contains("metrics.md differs").contains(ReferenceDocs.REGENERATE));
  }

  @Test
  void mainWritesTheThreeFiles() throws IOException {
    ReferenceDocs.main(new String[] {dir.toString()});

    assertThat(Files.readString(dir.resolve(ReferenceDocs.FINDINGS))).isEqualTo(docs.findings());
    assertThat(dir.resolve(ReferenceDocs.CONFIGURATION)).exists();
  }

  /** How GitHub turns a heading into an anchor: lower case, punctuation dropped, spaces to '-'. */
  private static String gitHubSlug(String heading) {
    return heading
        .trim()
        .toLowerCase(Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{N} _-]", "")
        .replace(' ', '-');
  }
}
