package io.faultline.it.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.agent.export.PrometheusScrape;
import io.faultline.core.metrics.MeterCatalog;
import io.faultline.core.metrics.MeterDoc;
import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaMeterTags;
import io.faultline.kafka.KafkaMeters;
import io.faultline.kafka.phase.MeteredPhaseRecorder;
import io.faultline.kafka.phase.PhaseMeters;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/grafana/faultline-dashboard.json} cannot drift from the meters: every series a query
 * names is one the agent exports for a declared {@link MeterDoc} (names computed by the same
 * Micrometer Prometheus registry the agent uses), every label it filters or groups by is one of
 * that meter's tags, and the dashboard imports as-is (one {@code DS_PROMETHEUS} input, used by
 * every panel).
 */
class DashboardMetricsTest {

  private static final Pattern SERIES = Pattern.compile("\\bfaultline_[a-z0-9_]+");
  private static final Pattern SELECTOR = Pattern.compile("(faultline_[a-z0-9_]+)\\{([^}]*)\\}");
  private static final Pattern MATCHER =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)");
  private static final Pattern BY = Pattern.compile("\\bby\\s*\\(([^)]*)\\)");
  private static final Pattern LEGEND = Pattern.compile("\\{\\{\\s*([a-zA-Z0-9_]+)\\s*\\}\\}");

  /** Labels Prometheus adds to every series of a target. */
  private static final Set<String> TARGET_LABELS = Set.of("instance", "job");

  /** The label of a histogram's buckets. */
  private static final String LE = "le";

  private static Map<String, Object> dashboard;
  private static Map<String, MeterDoc> exported;

  @BeforeAll
  @SuppressWarnings("unchecked")
  static void load() throws Exception {
    Path docs = Path.of(System.getProperty("faultline.it.docs.dir", "../../docs")).normalize();
    String text =
        Files.readString(docs.resolve("grafana/faultline-dashboard.json"), StandardCharsets.UTF_8);
    dashboard = (Map<String, Object>) Json.parse(text);
    exported = exportedSeries();
  }

  /** Every Prometheus series name of every declared meter, as the agent's registry writes it. */
  static Map<String, MeterDoc> exportedSeries() {
    Map<String, MeterDoc> out = new HashMap<>();
    for (MeterCatalog catalog : ServiceLoader.load(MeterCatalog.class)) {
      for (MeterDoc doc : catalog.meters()) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        String[] values = Collections.nCopies(doc.tagKeys().size(), "x").toArray(String[]::new);
        String text;
        if (doc == KafkaMeters.REQUEST_PHASE || doc == KafkaMeters.REQUEST_GAP) {
          // Histograms read off the phase recorder's own, written by the agent's endpoint.
          PhaseMeters phases = new PhaseMeters(registry, KafkaMeterTags.DEFAULT);
          new MeteredPhaseRecorder(phases, ClientType.PRODUCER, "x", "1", null)
              .record((short) 0, 1, 1, 1, 1, 1);
          // The recorder feeds both timers; keep this one's lines.
          String prefix = doc.name().replace('.', '_') + "_";
          text =
              new PrometheusScrape(registry, () -> phases)
                  .scrape()
                  .lines()
                  .filter(l -> l.startsWith(prefix))
                  .collect(java.util.stream.Collectors.joining("\n"));
        } else {
          switch (doc.type()) {
            case COUNTER -> doc.counter().tags(doc.tags(values)).register(registry).increment();
            case GAUGE -> doc.gauge(doc, d -> 1.0).tags(doc.tags(values)).register(registry);
            case TIMER -> doc.timer().tags(doc.tags(values)).register(registry);
            case DISTRIBUTION_SUMMARY -> doc.summary().tags(doc.tags(values)).register(registry);
          }
          text = registry.scrape();
        }
        for (String line : text.split("\n")) {
          if (!line.isEmpty() && !line.startsWith("#")) {
            out.put(line.replaceAll("[{ ].*", ""), doc);
          }
        }
        registry.close();
      }
    }
    return out;
  }

  @Test
  void theCatalogExportsTheNamesTheAgentServes() {
    // Pinned against a real agent scrape (DashboardRecordingTest): units and suffixes included.
    assertThat(exported)
        .containsKeys(
            "faultline_findings_active_findings",
            "faultline_jooq_savepoints_total",
            "faultline_jooq_nested_transactions_total",
            "faultline_kafka_request_phase_seconds_count",
            "faultline_kafka_request_phase_seconds_bucket",
            "faultline_kafka_request_gap_seconds_bucket",
            "faultline_kafka_connection_window_scaling_boolean",
            "faultline_net_connects_connections_total");
  }

  @Test
  void everySeriesAndLabelInTheQueriesIsDeclared() {
    List<String> problems = new ArrayList<>();
    for (Map<String, Object> panel : panels()) {
      for (Map<String, Object> target : targets(panel)) {
        String expr = (String) target.get("expr");
        String where = "panel '" + panel.get("title") + "': " + expr;
        Set<String> tags = new HashSet<>(TARGET_LABELS);
        Matcher series = SERIES.matcher(expr);
        while (series.find()) {
          MeterDoc doc = exported.get(series.group());
          if (doc == null) {
            problems.add("no declared meter exports " + series.group() + " in " + where);
          } else {
            doc.tagKeys().forEach(k -> tags.add(k.replace('.', '_')));
            if (series.group().endsWith("_bucket")) {
              tags.add(LE);
            }
          }
        }
        Matcher selector = SELECTOR.matcher(expr);
        while (selector.find()) {
          MeterDoc doc = exported.get(selector.group(1));
          Matcher label = MATCHER.matcher(selector.group(2));
          while (doc != null && label.find()) {
            String name = label.group(1);
            if (!TARGET_LABELS.contains(name)
                && !doc.tagKeys().contains(name.replace('_', '.'))
                && !doc.tagKeys().contains(name)) {
              problems.add(doc.name() + " has no tag " + name + " in " + where);
            }
          }
        }
        Set<String> grouped = new LinkedHashSet<>();
        Matcher by = BY.matcher(expr);
        while (by.find()) {
          for (String label : by.group(1).split(",")) {
            grouped.add(label.trim());
          }
        }
        for (String label : grouped) {
          if (!tags.contains(label)) {
            problems.add("no meter of the query has tag " + label + " in " + where);
          }
        }
        Matcher legend = LEGEND.matcher(String.valueOf(target.get("legendFormat")));
        while (legend.find()) {
          if (!grouped.contains(legend.group(1))) {
            problems.add("legend label " + legend.group(1) + " is not grouped by in " + where);
          }
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void coversEveryAreaTheDashboardIsFor() {
    StringBuilder all = new StringBuilder();
    panels().forEach(p -> targets(p).forEach(t -> all.append(t.get("expr")).append('\n')));
    assertThat(all.toString())
        .contains(
            "faultline_kafka_request_phase_seconds",
            "faultline_kafka_connection_window_scaling_boolean",
            "faultline_kafka_connection_rtt_seconds",
            "faultline_kafka_connection_snd_wnd_bytes",
            "faultline_kafka_connection_rcv_wnd_bytes",
            "faultline_kafka_stagger_delay_seconds",
            "faultline_kafka_connect_attempts_total",
            "faultline_net_connects_connections_total",
            "faultline_jooq_savepoints_total",
            "faultline_jooq_nested_transactions_total",
            "faultline_jooq_timeouts_total",
            "faultline_pg_slru_hit_ratio",
            "faultline_pg_oldest_transaction_age_seconds",
            "faultline_pg_multixact_age_multixacts",
            "faultline_findings_active_findings");
  }

  @Test
  @SuppressWarnings("unchecked")
  void importsAsIsWithOnePrometheusInput() {
    List<Map<String, Object>> inputs = (List<Map<String, Object>>) dashboard.get("__inputs");
    assertThat(inputs).hasSize(1);
    assertThat(inputs.get(0))
        .containsEntry("name", "DS_PROMETHEUS")
        .containsEntry("type", "datasource")
        .containsEntry("pluginId", "prometheus");
    assertThat(dashboard.get("id")).isNull();
    assertThat((Double) dashboard.get("schemaVersion")).isBetween(36.0, 41.0);
    Set<Object> ids = new HashSet<>();
    for (Map<String, Object> panel : (List<Map<String, Object>>) dashboard.get("panels")) {
      assertThat(ids.add(panel.get("id"))).as("unique panel id %s", panel.get("id")).isTrue();
      Map<String, Object> grid = (Map<String, Object>) panel.get("gridPos");
      assertThat((Double) grid.get("x") + (Double) grid.get("w")).isLessThanOrEqualTo(24.0);
    }
    for (Map<String, Object> panel : panels()) {
      assertThat(panel.get("datasource"))
          .as("datasource of '%s'", panel.get("title"))
          .isEqualTo(Map.of("type", "prometheus", "uid", "${DS_PROMETHEUS}"));
      assertThat(targets(panel)).as("queries of '%s'", panel.get("title")).isNotEmpty();
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> panels() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> panel : (List<Map<String, Object>>) dashboard.get("panels")) {
      if (!"row".equals(panel.get("type"))) {
        out.add(panel);
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> targets(Map<String, Object> panel) {
    return (List<Map<String, Object>>) panel.getOrDefault("targets", List.of());
  }
}
