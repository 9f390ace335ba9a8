package io.faultline.it.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.core.metrics.MeterDoc;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/prometheus/faultline-rules.yml} works and cannot drift from the meters: {@code
 * promtool} checks it and runs its unit tests ({@code faultline-rules.test.yml}), every series the
 * rules and their test inputs name is one the agent exports, with the agent's labels, and every
 * alert has a test that expects it to fire.
 */
class PrometheusRulesTest {

  private static final Pattern SERIES = Pattern.compile("\\bfaultline_[a-z0-9_]+");
  private static final Pattern INPUT =
      Pattern.compile("series: '(faultline_[a-z0-9_]+)\\{([^}]*)\\}'");
  private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"");
  private static final Pattern ALERT = Pattern.compile("- alert: (\\S+)");
  private static final Pattern FIRES =
      Pattern.compile("alertname: (\\S+)\\s+eval_time: \\S+\\s+exp_alerts:\\s+- exp_labels");

  /** Labels Prometheus adds (job, instance), the fleet's own (cluster), and a bucket's (le). */
  private static final Set<String> OTHER_LABELS = Set.of("job", "instance", "cluster", "le");

  private static Path dir;
  private static String rules;
  private static String tests;

  @BeforeAll
  static void load() throws Exception {
    Path docs = Path.of(System.getProperty("faultline.it.docs.dir", "../../docs")).normalize();
    dir = docs.resolve("prometheus");
    rules = Files.readString(dir.resolve("faultline-rules.yml"), StandardCharsets.UTF_8);
    tests = Files.readString(dir.resolve("faultline-rules.test.yml"), StandardCharsets.UTF_8);
  }

  @Test
  void promtoolChecksTheRulesAndPassesTheirTests() throws Exception {
    Optional<Path> promtool = onPath("promtool");
    assumeTrue(
        promtool.isPresent(),
        "promtool is not installed (Debian: apt-get install prometheus; .ci/run installs it)");

    assertThat(run(promtool.get(), "check", "rules", "faultline-rules.yml")).contains("SUCCESS");
    assertThat(run(promtool.get(), "test", "rules", "faultline-rules.test.yml"))
        .contains("SUCCESS");
  }

  @Test
  void everySeriesAndLabelIsOneTheAgentExports() {
    Map<String, MeterDoc> exported = DashboardMetricsTest.exportedSeries();
    List<String> problems = new ArrayList<>();
    Matcher series = SERIES.matcher(rules + tests);
    while (series.find()) {
      if (!exported.containsKey(series.group())) {
        problems.add("no declared meter exports " + series.group());
      }
    }
    Matcher input = INPUT.matcher(tests);
    while (input.find()) {
      MeterDoc doc = exported.get(input.group(1));
      Matcher label = LABEL.matcher(input.group(2));
      while (doc != null && label.find()) {
        String name = label.group(1);
        if (!OTHER_LABELS.contains(name) && !doc.tagKeys().contains(name.replace('_', '.'))) {
          problems.add(input.group(1) + " has no label " + name);
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void everyAlertHasATestWhereItFiresAndEveryFamilyAnAlert() {
    Set<String> alerts = new LinkedHashSet<>();
    ALERT.matcher(rules).results().forEach(m -> alerts.add(m.group(1)));
    Set<String> firing = new LinkedHashSet<>();
    FIRES.matcher(tests).results().forEach(m -> firing.add(m.group(1)));

    assertThat(firing).containsExactlyInAnyOrderElementsOf(alerts);
    assertThat(rules)
        .contains(
            "finding: KAFKA_WINDOW_SCALING_OFF",
            "finding: KAFKA_TRANSMIT_BOUND",
            "alert: FaultlineKafkaReconnectStorm",
            "finding: JOOQ_SAVEPOINT_AFTER_ROW_LOCK",
            "finding: PG_LONG_TRANSACTION",
            "finding: PG_MULTIXACT_SLRU_THRASH",
            "finding: NET_CONNECTION_CHURN",
            "finding: POOL_GROWTH_UNDER_CONTENTION",
            "alert: FaultlineKafkaBrokerImpairedAcrossServices");
  }

  private static String run(Path promtool, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(promtool.toString());
    command.addAll(List.of(args));
    Process p =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("promtool finished").isTrue();
    assertThat(p.exitValue()).as("promtool %s:%n%s", String.join(" ", args), out).isZero();
    return out;
  }

  /** An executable named {@code name} on the PATH. */
  static Optional<Path> onPath(String name) {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String entry : path.split(File.pathSeparator)) {
      Path candidate = Path.of(entry, name);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
