package io.faultline.testcontainers;

import java.time.Duration;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * What {@link KafkaFaults#restartWithPreferredLeaderElection} did.
 *
 * @param stopped how long the broker took to stop (its controlled shutdown moves leadership away)
 * @param untilElected from its start until every partition led by its preferred replica again
 * @param elected the partitions whose leadership the election moved back
 */
public record BrokerRestart(Duration stopped, Duration untilElected, Set<TopicPartition> elected) {

  /** Copies {@code elected}. */
  public BrokerRestart {
    elected = Set.copyOf(elected);
  }
}
