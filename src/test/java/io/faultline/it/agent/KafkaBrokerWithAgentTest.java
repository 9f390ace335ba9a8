package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A real Kafka broker (the suite's broker jars, KRaft, one node that is also the controller,
 * formatted with {@code StorageTool}) started with and without the agent: with it, the broker must
 * log that it started within a bound close to its start without it (the broker's {@code main} loads
 * kafka-clients' and its own classes while the agent installs), then create a topic and serve a
 * producer and a consumer; the agent must have timed the broker's own client requests.
 */
@Tag("real-world")
class KafkaBrokerWithAgentTest {

  private static final String STARTED = KafkaBrokerChild.STARTED;

  @Test
  void startsAsFastAsWithoutTheAgentAndServesATopic() throws Exception {
    double without;
    try (KafkaBrokerChild broker = KafkaBrokerChild.start("without", null)) {
      without = broker.child.awaitOutput(STARTED, Duration.ofSeconds(120));
      broker.createProduceConsume();
    }
    int port = Http.freePort();
    try (KafkaBrokerChild broker = KafkaBrokerChild.start("with", "prometheus.port=" + port)) {
      double with =
          broker.child.awaitOutput(
              STARTED, StartupChecks.bound("kafka broker (KRaft, 1 node)", without));
      StartupChecks.report("kafka broker (KRaft, 1 node)", without, with);
      broker.createProduceConsume();
      PrometheusText metrics =
          StartupChecks.awaitMetrics(
              port,
              m -> m.sum("faultline_kafka_request_phase_seconds_count", Map.of()) > 0,
              "the broker's own client requests timed",
              Duration.ofSeconds(30));
      assertThat(metrics.sum("faultline_agent_errors_total", Map.of()))
          .as("suppressed agent errors")
          .isZero();
      assertThat(broker.child.output()).doesNotContain(ChildJvm.ERRORS_AT_EXIT);
      StartupChecks.assertStartupBlockedBelowATenth(metrics);
    }
  }

  @Test
  void aTwoNodeQuorumStartsAsFastAsWithoutTheAgentAndReplicates() throws Exception {
    double without = portsAllowing(() -> startQuorum("quorum-without", null, null));
    portsAllowing(
        () -> startQuorum("quorum-with", new int[] {Http.freePort(), Http.freePort()}, without));
  }

  /** A start that picks its ports anew each time. */
  @FunctionalInterface
  private interface QuorumStart {
    double run() throws Exception;
  }

  /**
   * Runs {@code start}, again with new ports (up to three times) when a node could not bind one: a
   * port found free a moment ago may be taken by another process before the node binds it.
   */
  private static double portsAllowing(QuorumStart start) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        return start.run();
      } catch (AssertionError e) {
        if (attempt == 3 || !String.valueOf(e.getMessage()).contains("Address already in use")) {
          throw e;
        }
        System.out.println("[faultline-it] a quorum port was taken meanwhile; new ports");
      }
    }
  }

  /**
   * Starts two nodes that are brokers and controllers of one cluster (replica fetchers, controller
   * channels between them), waits for both to log that they started, creates a topic replicated to
   * both and serves it; returns the seconds until the later node started.
   */
  private static double startQuorum(String name, int[] agentPorts, Double withoutSeconds)
      throws Exception {
    String clusterId = Uuid.randomUuid().toString();
    int[] brokerPorts = {Http.freePort(), Http.freePort()};
    int[] controllerPorts = {Http.freePort(), Http.freePort()};
    String voters = "1@127.0.0.1:" + controllerPorts[0] + ",2@127.0.0.1:" + controllerPorts[1];
    try (KafkaBrokerChild one =
            KafkaBrokerChild.start(
                name + "-1",
                agentPorts == null ? null : "prometheus.port=" + agentPorts[0],
                new KafkaBrokerChild.Node(
                    1, clusterId, voters, "127.0.0.1", brokerPorts[0], controllerPorts[0]));
        KafkaBrokerChild two =
            KafkaBrokerChild.start(
                name + "-2",
                agentPorts == null ? null : "prometheus.port=" + agentPorts[1],
                new KafkaBrokerChild.Node(
                    2, clusterId, voters, "127.0.0.1", brokerPorts[1], controllerPorts[1]))) {
      Duration timeout =
          withoutSeconds == null
              ? Duration.ofSeconds(120)
              : StartupChecks.bound("kafka brokers (KRaft, 2 nodes)", withoutSeconds);
      double started =
          Math.max(
              one.child.awaitOutput(STARTED, timeout), two.child.awaitOutput(STARTED, timeout));
      if (withoutSeconds != null) {
        StartupChecks.report("kafka brokers (KRaft, 2 nodes)", withoutSeconds, started);
      }
      one.createProduceConsume((short) 2);
      if (agentPorts != null) {
        for (int port : agentPorts) {
          PrometheusText metrics =
              StartupChecks.awaitMetrics(
                  port,
                  m ->
                      m.sum(
                              "faultline_kafka_request_phase_seconds_count",
                              Map.of("api", "fetch", "client_type", "replica_fetcher"))
                          > 0,
                  "the replica fetcher's requests timed, labelled as the replica fetcher's",
                  Duration.ofSeconds(30));
          // The node's own clients by role: its Raft client and its channel to the controller
          // are apart from the replica fetcher, though they reach the same node ids.
          assertThat(
                  metrics.sum(
                      "faultline_kafka_request_phase_seconds_count", Map.of("client_type", "raft")))
              .as("the Raft client's requests")
              .isPositive();
          assertThat(
                  metrics.sum(
                      "faultline_kafka_request_phase_seconds_count",
                      Map.of("client_type", "controller_channel")))
              .as("the channel to the controller's requests")
              .isPositive();
          assertThat(
                  metrics.sum(
                      "faultline_kafka_request_phase_seconds_count",
                      Map.of("client_type", "other")))
              .as("requests of clients with no role")
              .isZero();
          assertThat(metrics.sum("faultline_agent_errors_total", Map.of()))
              .as("suppressed agent errors")
              .isZero();
        }
        assertThat(one.child.output() + two.child.output()).doesNotContain(ChildJvm.ERRORS_AT_EXIT);
      }
      return started;
    }
  }
}
