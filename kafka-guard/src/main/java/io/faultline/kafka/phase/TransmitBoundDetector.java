package io.faultline.kafka.phase;

import io.faultline.core.finding.Finding;
import io.faultline.kafka.KafkaFindingTypes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Raises {@code KAFKA_TRANSMIT_BOUND} for the nodes of one client whose requests, over an interval,
 * spent most of their time before the broker had them (queue + transmit + delivery above half the
 * latency and above a threshold) while at least one other node stayed below the threshold: the
 * shape of the LINE Kafka incident, where one broker's connections were crippled and the others
 * were fine.
 */
public final class TransmitBoundDetector {

  private final long thresholdNanos;
  private final long minRequests;

  /**
   * @param threshold mean pre-broker time above which a node is suspect ({@code
   *     kafka.phases.transmit-bound-threshold})
   * @param minRequests fewer requests than this in the interval say nothing about a node
   */
  public TransmitBoundDetector(Duration threshold, long minRequests) {
    this.thresholdNanos = threshold.toNanos();
    this.minRequests = Math.max(1, minRequests);
  }

  /**
   * The findings for one interval.
   *
   * @param clientId the client, for the subject
   * @param intervalByNode each node's sums over the interval, keyed by node id
   */
  public List<Finding> evaluate(
      String clientId, Map<String, NodePhaseStats.Snapshot> intervalByNode) {
    List<String> bound = new ArrayList<>();
    boolean anyHealthy = false;
    for (Map.Entry<String, NodePhaseStats.Snapshot> e : intervalByNode.entrySet()) {
      NodePhaseStats.Snapshot s = e.getValue();
      if (s.requests() < minRequests) {
        continue;
      }
      double pre = s.meanPreBrokerNanos();
      if (pre > thresholdNanos && pre > s.meanTotalNanos() / 2) {
        bound.add(e.getKey());
      } else if (pre <= thresholdNanos) {
        anyHealthy = true;
      }
    }
    List<Finding> findings = new ArrayList<>();
    if (!anyHealthy) {
      return findings; // every node slow: the client or its host, not one broker connection
    }
    for (String node : bound) {
      NodePhaseStats.Snapshot s = intervalByNode.get(node);
      double preMs = s.meanPreBrokerNanos() / 1e6;
      double totalMs = s.meanTotalNanos() / 1e6;
      findings.add(
          Finding.of(
                  KafkaFindingTypes.KAFKA_TRANSMIT_BOUND, "client " + clientId + " → node " + node)
              .evidence("requests", s.requests())
              .evidence("mean_pre_broker_ms", round(preMs))
              .evidence("mean_latency_ms", round(totalMs))
              .evidence("threshold_ms", thresholdNanos / 1_000_000)
              .message(
                  String.format(
                      java.util.Locale.ROOT,
                      "Requests to node %s took %.1f ms on average, %.1f ms of it before the broker"
                          + " had them (%d requests); other nodes are below %d ms.",
                      node,
                      totalMs,
                      preMs,
                      s.requests(),
                      thresholdNanos / 1_000_000))
              .build());
    }
    return findings;
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
