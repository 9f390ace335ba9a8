package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Faultline beside the OpenTelemetry Java agent, in both orders, on a producer and consumer and on
 * a jOOQ application: both agents instrument. The OpenTelemetry agent's spans go to its logging
 * exporter (its Kafka and JDBC instrumentations must show up there); Faultline's meters and
 * findings are read from its endpoint; neither agent logs an error.
 */
@ExtendWith(RealServers.class)
@Tag("real-world")
@Timeout(300)
class BesideOpenTelemetryAgentTest {

  @ParameterizedTest(name = "{0}")
  @EnumSource(OpenTelemetryAgentOrderTest.Order.class)
  void producerAndConsumerAreInstrumentedByBoth(
      OpenTelemetryAgentOrderTest.Order order, KafkaCluster kafka) throws Exception {
    String topic = "beside-otel-" + UUID.randomUUID().toString().substring(0, 8);
    kafka.createTopic(topic, 1);
    Path ready = KafkaTraffic.readyFile();
    int port = Http.freePort();
    ChildJvm child = KafkaTraffic.withClients(both(order, port));
    try (ChildJvm.Running running = KafkaTraffic.start(child, kafka, topic, 40, 1000, ready)) {
      KafkaTraffic.awaitReady(running, ready);
      assertThat(Files.readString(ready)).isEqualTo("produced=40 consumed=40");
      PrometheusText metrics =
          StartupChecks.awaitMetrics(
              port,
              m ->
                  m.sum(
                              "faultline_kafka_request_phase_seconds_count",
                              java.util.Map.of("api", "produce"))
                          > 0
                      && m.sum(
                              "faultline_kafka_request_phase_seconds_count",
                              java.util.Map.of("api", "fetch"))
                          > 0,
              "Faultline's produce and fetch phases",
              Duration.ofSeconds(30));
      assertThat(metrics.sum("faultline_agent_errors_total", java.util.Map.of())).isZero();
      running.send("stop");
      ChildJvm.Result result = running.awaitExit(60).assertCleanExit();
      String out = result.stdout() + result.stderr();
      ChildJvm.save("beside-otel-kafka-" + order + ".txt", out);
      assertThat(out)
          .as("OpenTelemetry's Kafka spans")
          .contains("[tracer: io.opentelemetry.kafka-clients");
      assertThat(out).doesNotContain("ERROR io.opentelemetry").doesNotContain("faultline: ERROR");
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(OpenTelemetryAgentOrderTest.Order.class)
  void aJooqApplicationIsInstrumentedByBoth(
      OpenTelemetryAgentOrderTest.Order order, PostgresServer postgres) throws Exception {
    int port = Http.freePort();
    String table = "beside_otel_" + order.name().toLowerCase(java.util.Locale.ROOT);
    ChildJvm child = both(order, port);
    for (Path p : JooqAgentTest.jooq319()) {
      child.classPath(p);
    }
    child
        .classPath(ChildJvm.jarOf(com.zaxxer.hikari.HikariDataSource.class))
        .classPath(ChildJvm.jarOf(org.slf4j.Logger.class))
        .classPath(ChildJvm.jarOf(org.postgresql.Driver.class));
    try (ChildJvm.Running running =
        child.start(
            "io.faultline.it.agent.app.JooqNestingApp",
            postgres.jdbcUrl(),
            postgres.username(),
            postgres.password(),
            table)) {
      String findings =
          Http.awaitBodyContaining(
                  "http://127.0.0.1:" + port + "/faultline/findings",
                  "JOOQ_SAVEPOINT_AFTER_ROW_LOCK",
                  Duration.ofSeconds(90))
              .body();
      assertThat(findings).doesNotContain("alice");
      running.send("stop");
      ChildJvm.Result result = running.awaitExit(60).assertCleanExit();
      String out = result.stdout() + result.stderr();
      ChildJvm.save("beside-otel-jooq-" + order + ".txt", out);
      assertThat(result.stdout()).contains("outer committed");
      assertThat(out).as("OpenTelemetry's JDBC spans").contains("[tracer: io.opentelemetry.jdbc");
      assertThat(out).doesNotContain("ERROR io.opentelemetry").doesNotContain("faultline: ERROR");
    }
  }

  /**
   * A child with both agents in {@code order}, spans logged, Faultline's endpoint on {@code port}.
   */
  private static ChildJvm both(OpenTelemetryAgentOrderTest.Order order, int port) {
    Path otel = OpenTelemetryAgentOrderTest.realWorld("opentelemetry-javaagent.jar");
    ChildJvm jvm =
        ChildJvm.on(Jdk.current())
            .withoutAgent()
            .option("-Dotel.traces.exporter=logging")
            .option("-Dotel.metrics.exporter=none")
            .option("-Dotel.logs.exporter=none");
    String faultline = "-javaagent:" + ChildJvm.agentJar() + "=prometheus.port=" + port;
    if (order == OpenTelemetryAgentOrderTest.Order.FAULTLINE_FIRST) {
      jvm.option(faultline);
    }
    jvm.option("-javaagent:" + otel);
    if (order == OpenTelemetryAgentOrderTest.Order.OPENTELEMETRY_FIRST) {
      jvm.option(faultline);
    }
    return jvm;
  }
}
