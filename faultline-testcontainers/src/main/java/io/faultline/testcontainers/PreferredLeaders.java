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
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ElectionNotNeededException;

/**
 * A preferred leader election over every partition, repeated until none is left whose preferred
 * replica cannot lead yet (a restarted broker leads again only once it is back in the ISR). Kept
 * apart from {@link KafkaFaults} so kafka-clients is needed only by the restart.
 */
final class PreferredLeaders {

  private PreferredLeaders() {}

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
            admin.electLeaders(ElectionType.PREFERRED, null).partitions().get(5, TimeUnit.SECONDS);
        Map<TopicPartition, Throwable> pending = new java.util.TreeMap<>(
            java.util.Comparator.comparing(TopicPartition::toString));
        result.forEach(
            (tp, error) -> {
              if (error.isEmpty()) {
                elected.add(tp);
              } else if (!(error.get() instanceof ElectionNotNeededException)) {
                pending.put(tp, error.get());
              }
            });
        if (pending.isEmpty()) {
          return elected;
        }
        lastProblem = pending;
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
