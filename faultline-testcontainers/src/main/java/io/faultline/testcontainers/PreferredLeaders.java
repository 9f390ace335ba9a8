package io.faultline.testcontainers;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ElectLeadersOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.ElectionNotNeededException;

/**
 * A preferred leader election over every partition, repeated until none is left whose preferred
 * replica cannot lead yet (a restarted broker leads again only once it is back in the ISR). Kept
 * apart from {@link KafkaFaults} so kafka-clients is needed only by the restart.
 */
final class PreferredLeaders {

  /**
   * How long one call may stay in the admin client: as long as it is waited for. A call given up on
   * would otherwise stay queued for the client's whole default API timeout, and the caller's {@code
   * Admin.close()} waits for every queued call.
   */
  private static final int CALL_MILLIS = 5_000;

  private PreferredLeaders() {}

  /**
   * Whether the metadata the brokers hand out names each elected partition's preferred replica as
   * its leader: then clients that refresh their metadata go to it.
   */
  private static boolean visible(Admin admin, Set<TopicPartition> elected)
      throws ExecutionException, TimeoutException, InterruptedException {
    if (elected.isEmpty()) {
      return true;
    }
    Set<String> topics = new HashSet<>();
    elected.forEach(tp -> topics.add(tp.topic()));
    Map<String, TopicDescription> described =
        admin
            .describeTopics(topics, new DescribeTopicsOptions().timeoutMs(CALL_MILLIS))
            .allTopicNames()
            .get(CALL_MILLIS, TimeUnit.MILLISECONDS);
    for (TopicPartition tp : elected) {
      TopicPartitionInfo info =
          described.get(tp.topic()).partitions().stream()
              .filter(p -> p.partition() == tp.partition())
              .findFirst()
              .orElse(null);
      if (info == null
          || info.leader() == null
          || info.replicas().isEmpty()
          || info.leader().id() != info.replicas().get(0).id()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Elects until done or {@code timeout}; returns the partitions whose leadership moved.
   *
   * @throws IllegalStateException at the timeout, naming what was still pending
   */
  static Set<TopicPartition> elect(Admin admin, Duration timeout, String hint)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    Set<TopicPartition> elected = new HashSet<>();
    Object lastProblem = "no answer yet";
    while (true) {
      try {
        Map<TopicPartition, Optional<Throwable>> result =
            admin
                .electLeaders(
                    ElectionType.PREFERRED, null, new ElectLeadersOptions().timeoutMs(CALL_MILLIS))
                .partitions()
                .get(CALL_MILLIS, TimeUnit.MILLISECONDS);
        Map<TopicPartition, Throwable> pending =
            new java.util.TreeMap<>(java.util.Comparator.comparing(TopicPartition::toString));
        result.forEach(
            (tp, error) -> {
              if (error.isEmpty()) {
                elected.add(tp);
              } else if (!(error.get() instanceof ElectionNotNeededException)) {
                pending.put(tp, error.get());
              }
            });
        if (pending.isEmpty() && visible(admin, elected)) {
          return elected;
        }
        lastProblem = pending.isEmpty() ? "the new leaders are not in the metadata yet" : pending;
      } catch (ExecutionException e) {
        lastProblem = e.getCause();
      } catch (TimeoutException e) {
        lastProblem = "the election got no answer in 5 s";
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "preferred leader election not done after "
                + timeout.toSeconds()
                + " s: "
                + lastProblem
                + hint);
      }
      Thread.sleep(500);
    }
  }
}
