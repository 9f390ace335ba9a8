package io.faultline.it.bench;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.it.servers.RequiresDocker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs every benchmark of issue #10 and writes the generated part of {@code docs/benchmarks.md} and
 * its charts. Not part of the default build: it runs only with {@code -Dfaultline.bench=full} or
 * {@code quick}, which the root {@code ./benchmarks} script sets (after running the JMH benchmarks,
 * whose JSON it reads from {@code faultline.bench.jmh.dir}). {@code -Dfaultline.bench.only=jooq} (a
 * comma-separated list of parts: startup, clients, jooq, memory, reference) runs only those parts
 * and prints their results instead of writing the report; {@code reference} is this build's agent
 * against an earlier build's ({@code ./benchmarks against <revision>}). {@code
 * -Dfaultline.bench.client-rounds=12} runs the Kafka workloads in that many rounds.
 */
@ExtendWith(RealServers.class)
@EnabledIfSystemProperty(named = "faultline.bench", matches = "full|quick")
@RequiresDocker("pg_stat_statements is preloaded only in the container image")
class BenchmarkSuiteTest {

  /** The full benchmark takes 70-110 minutes on two cores: far beyond the suite's default. */
  @Test
  @Timeout(value = 150, unit = TimeUnit.MINUTES)
  void runAllAndWriteTheReport(KafkaCluster kafka, PostgresServer postgres) throws Exception {
    long started = Long.getLong("faultline.bench.started", System.currentTimeMillis() / 1000);
    String load = System.getProperty("faultline.bench.loadavg", MachineDescription.loadNow());
    BenchSettings settings = BenchSettings.of(System.getProperty("faultline.bench"));
    String clientRounds = System.getProperty("faultline.bench.client-rounds");
    if (clientRounds != null) {
      settings = settings.withClientRounds(BenchSettings.rounds(clientRounds));
    }
    String date =
        ZonedDateTime.now(ZoneOffset.UTC)
            .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
    String jmhDir = System.getProperty("faultline.bench.jmh.dir");
    Map<String, JmhResults.Score> jmh = JmhResults.read(jmhDir == null ? null : Path.of(jmhDir));
    Set<String> only = onlyParts();
    if (!only.isEmpty()) {
      if (only.contains("startup")) {
        new StartupBenchmark(settings).run().forEach(r -> System.out.println("bench: " + r));
      }
      if (only.contains("clients")) {
        for (ClientPerfBenchmark.Series s : publishedClients(kafka, settings).run()) {
          System.out.printf(
              java.util.Locale.ROOT,
              "bench: %s: throughput ratio %.3f (OpenTelemetry %.3f), p99 ratio %.2f,"
                  + " CPU per record ratio %.3f (OpenTelemetry %.3f)%n",
              s.name(),
              s.medianThroughputRatio(BenchJvm.Variant.FAULTLINE),
              s.medianThroughputRatio(BenchJvm.Variant.OTEL),
              s.medianP99Ratio(BenchJvm.Variant.FAULTLINE),
              s.medianCpuRatio(BenchJvm.Variant.FAULTLINE),
              s.medianCpuRatio(BenchJvm.Variant.OTEL));
        }
      }
      if (only.contains("jooq")) {
        JooqTpsBenchmark jooqBench = new JooqTpsBenchmark(postgres, settings);
        JooqTpsBenchmark.printSummary(jooqBench.run());
      }
      if (only.contains("memory")) {
        new ConnectionMemoryBenchmark(kafka, settings).run(); // prints its results
      }
      if (only.contains("reference")) {
        againstReference(kafka, settings, load, date);
      }
      return;
    }

    List<StartupBenchmark.Result> startup = new StartupBenchmark(settings).run();
    List<ClientPerfBenchmark.Series> clients = publishedClients(kafka, settings).run();
    JooqTpsBenchmark jooqBench = new JooqTpsBenchmark(postgres, settings);
    var jooq = jooqBench.run();
    ConnectionMemoryBenchmark.Rounds memory = new ConnectionMemoryBenchmark(kafka, settings).run();

    Path docs = Path.of(System.getProperty("faultline.it.docs.dir"));
    double minutes = (System.currentTimeMillis() / 1000 - started) / 60.0;
    BenchmarkReport.Measurements measurements =
        new BenchmarkReport.Measurements(
            settings,
            System.getProperty("faultline.bench.command", "./benchmarks " + settings.mode()),
            MachineDescription.markdown(load, date),
            clients,
            cappedReferenceName(),
            jmh,
            jooq,
            jooqBench.statementsCounted(),
            startup,
            Files.size(BenchJvm.faultlineAgent()),
            Files.size(BenchJvm.otelAgent()),
            memory,
            minutes);
    ReportFile.write(
        docs.resolve("benchmarks.md"), new BenchmarkReport(measurements, docs).render());
  }

  /**
   * The published Kafka workloads; the capped producer's with the reference build too where {@code
   * -Dfaultline.bench.reference.agent} names one ({@code ./benchmarks} builds the agent from before
   * the cost work).
   */
  private static ClientPerfBenchmark publishedClients(KafkaCluster kafka, BenchSettings settings) {
    boolean reference = System.getProperty("faultline.bench.reference.agent") != null;
    if (reference) {
      BenchJvm.referenceAgent(); // fails at once, naming the property, before any round
    }
    return ClientPerfBenchmark.published(kafka, settings, reference);
  }

  /** How the capped producer's reference build is named, null if none ran. */
  private static String cappedReferenceName() {
    return System.getProperty("faultline.bench.reference.agent") == null
        ? null
        : System.getProperty("faultline.bench.reference.name", "the reference build");
  }

  /**
   * This build's agent against {@code -Dfaultline.bench.reference.agent}, an earlier build ({@code
   * ./benchmarks against <revision>} builds it), on the workloads {@code
   * -Dfaultline.bench.reference.workloads} names; the report goes to standard output and to {@code
   * -Dfaultline.bench.reference.out}.
   */
  private static void againstReference(
      KafkaCluster kafka, BenchSettings settings, String load, String date) throws IOException {
    BenchJvm.referenceAgent(); // fails at once, naming the property, before any round
    String name = System.getProperty("faultline.bench.reference.name", "the reference build");
    List<ClientPerfBenchmark.Series> series =
        new ClientPerfBenchmark(
                kafka,
                settings,
                List.of(
                    BenchJvm.Variant.NO_AGENT,
                    BenchJvm.Variant.FAULTLINE,
                    BenchJvm.Variant.REFERENCE),
                ClientPerfBenchmark.Workload.parse(
                    System.getProperty("faultline.bench.reference.workloads", "capped")))
            .run();
    String report =
        new ReferenceComparison(series, name)
            .render(
                System.getProperty("faultline.bench.command", "./benchmarks against"),
                MachineDescription.markdown(load, date));
    System.out.println(report);
    String out = System.getProperty("faultline.bench.reference.out");
    if (out != null) {
      Files.writeString(Path.of(out), report);
    }
  }

  /** The parts named by {@code -Dfaultline.bench.only}; empty: every part, and the report. */
  private static Set<String> onlyParts() {
    Set<String> parts = new TreeSet<>();
    for (String part : System.getProperty("faultline.bench.only", "").split(",")) {
      if (!part.isBlank()) {
        parts.add(part.strip());
      }
    }
    Set<String> unknown = new TreeSet<>(parts);
    unknown.removeAll(Set.of("startup", "clients", "jooq", "memory", "reference"));
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          "-Dfaultline.bench.only names unknown parts "
              + unknown
              + "; use a comma-separated list of startup, clients, jooq, memory, reference");
    }
    return parts;
  }
}
