package io.faultline.core.docs;

import io.faultline.core.config.ConfigKey;
import io.faultline.core.config.ConfigKeyCatalog;
import io.faultline.core.config.EnvironmentNames;
import io.faultline.core.finding.FindingCatalog;
import io.faultline.core.finding.FindingType;
import io.faultline.core.metrics.MeterCatalog;
import io.faultline.core.metrics.MeterConvention;
import io.faultline.core.metrics.MeterDoc;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Renders {@code docs/configuration.md}, {@code docs/findings.md} and {@code docs/metrics.md} from
 * the declarations in code: every {@link ConfigKeyCatalog}, {@link FindingCatalog} and {@link
 * MeterCatalog} on the class path. The output is sorted and has no timestamps, so the committed
 * files can be checked for drift: {@code assertThat(ReferenceDocs.fromClassPath()
 * .differencesFrom(docsDir)).isEmpty()}.
 *
 * <p>Regenerate from the repository root with {@value #REGENERATE}.
 */
public final class ReferenceDocs {

  /**
   * The command that regenerates the committed files, from the repository root. It runs in the
   * integration suite because only there is every module's catalog on the class path.
   */
  public static final String REGENERATE =
      "./mvnw -q verify -pl src/test -am -Dtest=DocsAreCurrentTest"
          + " -Dsurefire.failIfNoSpecifiedTests=false -Dfaultline.docs.write=true";

  /** File name of the configuration reference. */
  public static final String CONFIGURATION = "configuration.md";

  /** File name of the findings reference. */
  public static final String FINDINGS = "findings.md";

  /** File name of the metrics reference. */
  public static final String METRICS = "metrics.md";

  private final List<ConfigKey<?>> keys;
  private final List<FindingType> findingTypes;
  private final List<MeterDoc> meters;

  /** Docs for the given declarations (sorted here; a name declared twice is listed once). */
  public ReferenceDocs(
      List<ConfigKey<?>> keys, List<FindingType> findingTypes, List<MeterDoc> meters) {
    this.keys = sortedUnique(keys, ConfigKey::name);
    this.findingTypes = sortedUnique(findingTypes, FindingType::id);
    this.meters = sortedUnique(meters, MeterDoc::name);
  }

  /** Docs for every catalog found by {@link ServiceLoader} on this class's class loader. */
  public static ReferenceDocs fromClassPath() {
    ClassLoader loader = ReferenceDocs.class.getClassLoader();
    List<ConfigKey<?>> keys = new ArrayList<>();
    ServiceLoader.load(ConfigKeyCatalog.class, loader).forEach(c -> keys.addAll(c.keys()));
    List<FindingType> types = new ArrayList<>();
    ServiceLoader.load(FindingCatalog.class, loader).forEach(c -> types.addAll(c.findingTypes()));
    List<MeterDoc> meters = new ArrayList<>();
    ServiceLoader.load(MeterCatalog.class, loader).forEach(c -> meters.addAll(c.meters()));
    return new ReferenceDocs(keys, types, meters);
  }

  /** Writes the three files into the directory named by {@code args[0]} (created if missing). */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: ReferenceDocs <output directory>, e.g. " + REGENERATE);
      System.exit(2);
    }
    Path dir = Path.of(args[0]).toAbsolutePath();
    ReferenceDocs docs = fromClassPath();
    docs.writeTo(dir);
    System.out.println(
        "faultline: wrote " + String.join(", ", docs.render().keySet()) + " to " + dir);
  }

  /** File name to content, for all three files. */
  public Map<String, String> render() {
    Map<String, String> files = new TreeMap<>();
    files.put(CONFIGURATION, configuration());
    files.put(FINDINGS, findings());
    files.put(METRICS, metrics());
    return files;
  }

  /** Writes every file of {@link #render()} into {@code dir}. */
  public void writeTo(Path dir) throws IOException {
    Files.createDirectories(dir);
    for (Map.Entry<String, String> file : render().entrySet()) {
      Files.writeString(dir.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
    }
  }

  /**
   * What differs between the rendered files and those in {@code dir}, one line per file (empty when
   * the committed docs are up to date), each saying how to fix it.
   */
  public List<String> differencesFrom(Path dir) throws IOException {
    List<String> differences = new ArrayList<>();
    for (Map.Entry<String, String> file : render().entrySet()) {
      Path path = dir.resolve(file.getKey());
      if (!Files.exists(path)) {
        differences.add(path + " is missing; regenerate with " + REGENERATE);
      } else if (!Files.readString(path, StandardCharsets.UTF_8).equals(file.getValue())) {
        differences.add(
            path + " differs from the declarations in code; regenerate with " + REGENERATE);
      }
    }
    return differences;
  }

  /** {@code docs/configuration.md}. */
  public String configuration() {
    StringBuilder md = new StringBuilder();
    md.append("# Configuration reference\n\n").append(generatedNote("configuration keys"));
    md.append(
        """
        ## Where settings come from

        Each key is read from these sources; a later one wins over an earlier one:

        1. the key's default (below);
        2. the properties file named by `config` (UTF-8, `key=value` lines, keys without a prefix);
           `config` itself may be set by any of the sources below, not inside the file;
        3. environment variables `FAULTLINE_*`;
        4. system properties `-Dfaultline.<key>`;
        5. the agent argument, `-javaagent:faultline-agent.jar=<key>=<value>,<key>=<value>`.

        ## How names are written

        | Source | How `findings.log-interval` is written |
        |---|---|
        | config file, agent argument | `findings.log-interval` |
        | system property | `-Dfaultline.findings.log-interval` |
        | environment variable | `FAULTLINE_FINDINGS_LOG__INTERVAL` |

        An environment variable is `FAULTLINE_` and the key in upper case, with `.` written as `_`
        and `-` written as `__`.

        ## Agent argument syntax

        Settings are separated by `,`; each is `key=value`, with spaces around key and value ignored.
        Only the first `=` separates key and value. A value containing `,` (or leading or trailing
        spaces) is written in double quotes, `export.tags="a,b"`; inside quotes `\\"` is a quote and
        `\\\\` a backslash, any other backslash is kept. A key given twice keeps its last value, with
        a warning.

        ## Mistakes

        Loading never stops the application. An unknown key is a warning naming the closest known
        key. A value that does not parse is an error: the key keeps its default and its feature is
        turned off (see below) until the value is fixed. An unreadable config file is an error and
        the other sources still apply. Each problem is printed as one `faultline:` line on stderr.

        ## Features

        Every key belongs to a feature. A feature's on/off switch is the boolean key named like the
        feature (`net.churn=off`). A feature runs when its switch is on (or it has none) and none of
        its keys had a value rejected.

        """);
    Map<String, List<ConfigKey<?>>> byFeature = new TreeMap<>();
    keys.forEach(k -> byFeature.computeIfAbsent(k.feature(), f -> new ArrayList<>()).add(k));
    md.append(Markdown.header("Feature", "Switch", "Keys"));
    byFeature.forEach(
        (feature, featureKeys) -> {
          boolean hasSwitch = featureKeys.stream().anyMatch(k -> k.name().equals(feature));
          TreeSet<String> names = new TreeSet<>();
          featureKeys.forEach(k -> names.add(Markdown.code(k.name())));
          md.append(
              Markdown.row(
                  List.of(
                      Markdown.code(feature),
                      hasSwitch ? Markdown.code(feature) : "none",
                      String.join(", ", names))));
        });
    md.append("\n## Keys\n\n");
    md.append(
        Markdown.header(
            "Key", "Type", "Default", "Feature", "Environment variable", "Description"));
    for (ConfigKey<?> key : keys) {
      md.append(
          Markdown.row(
              List.of(
                  Markdown.code(key.name()),
                  key.type().name(),
                  Markdown.code(Markdown.cell(key.defaultText())),
                  Markdown.code(key.feature()),
                  Markdown.code(EnvironmentNames.of(key.name())),
                  Markdown.cell(key.description() + " Expected: " + key.type().expected() + "."))));
    }
    return md.toString();
  }

  /** {@code docs/findings.md}: one section per finding id, its heading the id itself. */
  public String findings() {
    StringBuilder md = new StringBuilder();
    md.append("# Findings reference\n\n").append(generatedNote("finding types"));
    md.append(
        "Each finding has a stable id, a default severity, and a section here whose anchor is the"
            + " lower-case id; log lines and the status page link to it. Where there is no copy of"
            + " this repository, `"
            + FindingType.EXPLAIN_COMMAND
            + " <ID>` prints the same section. The incidents the findings come from are told in"
            + " [incidents.md](incidents.md).\n\n");
    md.append(Markdown.header("Id", "Default severity", "What was found"));
    for (FindingType type : findingTypes) {
      md.append(
          Markdown.row(
              List.of(
                  "[" + type.id() + "](#" + anchor(type) + ")",
                  type.defaultSeverity().name(),
                  Markdown.cell(type.title()))));
    }
    for (FindingType type : findingTypes) {
      md.append("\n## ").append(type.id()).append("\n\n");
      md.append("**").append(type.title()).append("**\n\n");
      md.append("Default severity: ").append(type.defaultSeverity().name()).append("\n\n");
      md.append("**Why it matters.** ").append(type.why()).append("\n\n");
      md.append("**What to do.** ").append(type.remediation()).append("\n");
      if (!type.incidents().isEmpty()) {
        List<String> links = new ArrayList<>();
        type.incidents()
            .forEach(
                i ->
                    links.add(
                        "[" + capitalized(i.publicName()) + "](incidents.md#" + i.anchor() + ")"));
        md.append("\n**Incident.** ").append(String.join(", ", links)).append("\n");
      }
      md.append("\nFrom the agent jar: `")
          .append(FindingType.EXPLAIN_COMMAND)
          .append(' ')
          .append(type.id())
          .append("`\n");
    }
    return md.toString();
  }

  /** {@code docs/metrics.md}. */
  public String metrics() {
    StringBuilder md = new StringBuilder();
    md.append("# Metrics reference\n\n").append(generatedNote("meters"));
    md.append(
        "Names are Micrometer names; a Prometheus registry writes them with `_` for `.`, the base"
            + " unit appended, and `_total` on counters. Tag values come from small fixed sets.\n\n");
    md.append(conventions());
    md.append(Markdown.header("Name", "Type", "Base unit", "Tags", "Feature", "Description"));
    for (MeterDoc meter : meters) {
      List<String> tags = new ArrayList<>();
      meter.tagKeys().forEach(t -> tags.add(Markdown.code(t)));
      md.append(
          Markdown.row(
              List.of(
                  Markdown.code(meter.name()),
                  meter.type().name().toLowerCase(java.util.Locale.ROOT),
                  Markdown.cell(meter.baseUnit()),
                  tags.isEmpty() ? "none" : String.join(", ", tags),
                  Markdown.code(meter.feature()),
                  Markdown.cell(meter.description()))));
    }
    md.append(histograms());
    return md.toString();
  }

  /**
   * How the Kafka phase timers reach Prometheus as histograms, and what they cost in series: the
   * one place the cardinality of the per-broker meters is stated.
   */
  private static String histograms() {
    return """

        ## Histograms and series per broker node

        The agent's Prometheus endpoint writes `faultline.kafka.request.phase` and \
        `faultline.kafka.request.gap` as classic histograms: `_bucket{le=...}` at each bound of \
        `kafka.phases.buckets` (default `1ms,2ms,5ms,10ms,25ms,50ms,100ms,250ms,500ms,1s,5s,10s`) \
        and `+Inf`, with `_count` and `_sum`. The buckets are read at scrape time off the timers' \
        own log-linear histograms (8 buckets per power of two), each bound at the nearest edge of \
        those (within 6.25 %), so recording a request costs what it cost without them. With the \
        same bounds everywhere, buckets add up across instances:

        ```
        histogram_quantile(0.99, sum by (node_id, le) (
          rate(faultline_kafka_request_phase_seconds_bucket{phase="transmit"}[5m])))
        ```

        is a fleet's transmit p99 per broker. Where the timers reach another registry (the \
        application's Micrometer through the bridge, a library's own registry) they stay a count \
        and a sum.

        Series, all bounded by fixed sets and the cluster's broker count, never by the number of \
        clients (unless `kafka.meters.client-id=true`):

        | Per client type and broker node | Series |
        |---|---|
        | `faultline.kafka.request.phase`: one histogram per API used and phase seen | bounds + 3 each: 15 with the default bounds |
        | `faultline.kafka.request.gap`: one histogram per API used | bounds + 3 each: 15 |
        | `faultline.kafka.connection.*` gauges | 10 |
        | `faultline.kafka.connect.attempts` (per node, by outcome) | up to 5 |

        A histogram exists once its phase has a value: `queue`, `transmit` and `receive` for \
        every API answered, `delivery` and `response`, or `response_incl_delivery`, or both. \
        Measured with the default bounds (`PrometheusScrapesAgentTest`: one producer and one \
        consumer, one broker, a real Prometheus): the producer's histograms to the broker were 19 \
        (285 series), the consumer's 31 (465); the bootstrap connection adds 18 per client type \
        (`node_id="bootstrap"`, 270 series), and the consumer's connection under \
        `node_id="other"` (a node id that is not a small integer) 28 (420). As count-and-sum \
        timers they were 2 series each: 38 and 62. A shorter `kafka.phases.buckets` is the \
        lever: each bound removed is one series per histogram.

        Over OTLP the same histograms go with the explicit bounds of `kafka.phases.buckets` by \
        default, or as base-2 exponential histograms (`otlp.histograms=exponential`, or the \
        OpenTelemetry SDK's \
        `OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION=base2_exponential_bucket_histogram`): \
        scale 3, eight buckets per power of two (each about 9 % wide), no bounds to choose. They \
        are read off the same log-linear histograms at export time; the two bucket sets' edges do \
        not meet, so each log-linear bucket's count goes to the exponential bucket holding its \
        middle, and a value may be counted one bucket (9 %) from where it lies. A backend stores \
        only the buckets that have counts: a phase that spans 1-10 ms is about 27 buckets in one \
        data point, not one series per bound.

        The same exponential buckets reach Prometheus as native histograms (schema 3) when the \
        scraper asks for Prometheus's protobuf format, as a Prometheus started with \
        `--enable-feature=native-histograms` does: each phase histogram is then one series, and \
        `histogram_quantile(0.99, sum by (node_id) (rate(faultline_kafka_request_phase_seconds[5m])))` \
        works on it without `_bucket` or `le`. The protobuf answer carries the classic buckets \
        too; a scraper asking for text gets the classic histograms as before \
        (`PrometheusNativeHistogramsTest` runs a real Prometheus with native histograms on).
        """;
  }

  /**
   * The naming convention, written once here and enforced by {@link MeterConvention#violations}
   * over every catalog.
   */
  private static String conventions() {
    StringBuilder md = new StringBuilder("## Naming convention\n\n");
    md.append(
        """
        Every meter follows these rules; a test over every declared meter fails when one does not.

        - The name is lowercase and dotted, starting `faultline.` and the feature: \
        `faultline.jooq.transactions`.
        - Every meter has a base unit (a timer's is seconds) and a one-sentence description.
        - Tag values come from small fixed sets: never a user-supplied or per-request value such as \
        a `client.id`, a SQL text or a thread name. (`kafka.meters.client-id=true` opts in to \
        `client.id` on the per-broker Kafka meters, for a service with a few clients; it is off by \
        default and not a declared tag. The `client` tag of the per-client accepted-connection \
        gauges is bounded otherwise: five named clients per listener, the rest as `other`.)
        - One tag key per concept, from the list below. What happened to the counted thing is \
        always `outcome` (never `result`, `event`, `action` or `decision`).
        - Tags you add yourself — `tags("db", "orders")` on a builder, or the extra tags of a \
        binder's constructor — are added to every meter that instance registers, so two guards or \
        two databases on one registry are two series rather than one silently kept. A key the \
        meter sets itself (say `outcome`) is refused when the builder is configured.

        """);
    md.append(Markdown.header("Tag key", "Concept"));
    MeterConvention.TAG_KEYS.forEach(
        (key, concept) ->
            md.append(Markdown.row(List.of(Markdown.code(key), Markdown.cell(concept)))));
    md.append("\n## Meters\n\n");
    return md.toString();
  }

  private static String capitalized(String text) {
    return Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }

  /** The part of {@link FindingType#docsAnchor()} after {@code #}. */
  private static String anchor(FindingType type) {
    String docsAnchor = type.docsAnchor();
    return docsAnchor.substring(docsAnchor.indexOf('#') + 1);
  }

  private static String generatedNote(String what) {
    return "This file is generated from the "
        + what
        + " declared in code (`io.faultline.core.docs.ReferenceDocs`); do not edit it by hand."
        + " Change the declaration and regenerate from the repository root with\n\n"
        + "```\n"
        + REGENERATE
        + "\n```\n\n";
  }

  private static <T> List<T> sortedUnique(List<T> items, Function<T, String> name) {
    Map<String, T> byName = new TreeMap<>(Comparator.naturalOrder());
    items.forEach(item -> byName.putIfAbsent(name.apply(item), item));
    return List.copyOf(byName.values());
  }
}
