package io.faultline.it.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.Brokers;
import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import io.faultline.kafka.reconnect.StaggeredBackoffConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link StaggeredBackoffConfig} against a real broker restart: two groups of producers, one with
 * Kafka's default reconnect backoff and one with a per-instance random maximum, keep producing
 * through a restart; the times at which each producer's connection comes back are compared. The
 * default group comes back within about one maximum backoff (1 s ± 20 %); the staggered group
 * spreads over its drawn maxima. Prints both spreads.
 *
 * <p>The broker stays down long enough for every backoff to grow to its maximum. Backoff doubles
 * from 50 ms per failed attempt, so a short outage ends while every client is still at a small
 * backoff and no maximum can spread anything (a 3 s restart on a fast machine gave both groups a
 * spread of about one second): that is a limit of the helper, written in its Javadoc, not of this
 * test.
 */
@ExtendWith(RealServers.class)
class StaggeredBackoffReconnectTest {

  private static final int CLIENTS_PER_GROUP = 16;

  /** How long the broker stays stopped: longer than the backoffs take to reach their maxima. */
  private static final Duration DOWN = Duration.ofSeconds(15);

  @Test
  void randomizedMaximumBackoffSpreadsReconnectsAfterARestart(
      @Brokers(value = 1, dedicated = true) KafkaCluster kafka) throws Exception {
    String topic = "stagger-" + UUID.randomUUID();
    kafka.createTopic(topic, 1);
    Map<String, Object> common = new HashMap<>();
    common.put(ProducerConfig.ACKS_CONFIG, "1");
    common.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 180_000);
    common.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000);
    // A stopped container's address answers nothing: end hung SYNs quickly in both groups alike.
    common.put("socket.connection.setup.timeout.ms", 1_000);
    common.put("socket.connection.setup.timeout.max.ms", 1_000);
    StaggeredBackoffConfig staggered =
        StaggeredBackoffConfig.between(Duration.ofSeconds(1), Duration.ofSeconds(4));

    List<KafkaProducer<String, String>> plain = new ArrayList<>();
    List<KafkaProducer<String, String>> spread = new ArrayList<>();
    List<Long> drawnMaxima = new ArrayList<>();
    AtomicBoolean running = new AtomicBoolean(true);
    List<Thread> senders = new ArrayList<>();
    try {
      for (int i = 0; i < CLIENTS_PER_GROUP; i++) {
        plain.add(producer(kafka, common, "plain-" + i));
        Map<String, Object> config = staggered.apply(withId(common, "staggered-" + i));
        drawnMaxima.add(
            ((Number) config.get(StaggeredBackoffConfig.RECONNECT_BACKOFF_MAX_MS)).longValue());
        spread.add(producer(kafka, config, null));
      }
      for (KafkaProducer<String, String> p : concat(plain, spread)) {
        Thread t =
            new Thread(
                () -> {
                  while (running.get()) {
                    p.send(new ProducerRecord<>(topic, "x"), (m, e) -> {});
                    sleep(100);
                  }
                });
        t.setDaemon(true);
        t.start();
        senders.add(t);
      }
      // What the helper decided: each instance its own maximum, drawn within the bounds. Sixteen
      // draws from U[1 s, 4 s] span less than a second with a chance below 1e-5.
      assertThat(drawnMaxima)
          .as("drawn reconnect.backoff.max.ms")
          .allSatisfy(ms -> assertThat(ms).isBetween(1_000L, 4_000L));
      assertThat(Collections.max(drawnMaxima) - Collections.min(drawnMaxima))
          .as("the drawn maxima spread, ms: %s", drawnMaxima)
          .isGreaterThanOrEqualTo(1_000L);
      sleep(3_000); // every producer connected and sending

      kafka.node(1).stop();
      // From 50 ms doubling, each failed attempt ending at the 1 s setup timeout, a 4 s maximum is
      // reached after about 13 s of failures: wait that long, and the restart's own seconds on top.
      sleep(DOWN.toMillis());
      long[] plainBase = creations(plain);
      long[] spreadBase = creations(spread);
      long[] plainBack = new long[CLIENTS_PER_GROUP];
      long[] spreadBack = new long[CLIENTS_PER_GROUP];
      Thread watcher =
          new Thread(
              () -> {
                while (running.get()) {
                  mark(plain, plainBase, plainBack);
                  mark(spread, spreadBase, spreadBack);
                  sleep(10);
                }
              });
      watcher.setDaemon(true);
      watcher.start();
      long started = System.nanoTime();
      kafka.node(1).start();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while ((missing(plainBack) || missing(spreadBack)) && System.nanoTime() < deadline) {
        sleep(100);
      }
      running.set(false);

      assertThat(plainBack).as("every default producer reconnected").doesNotContain(0L);
      assertThat(spreadBack).as("every staggered producer reconnected").doesNotContain(0L);
      long first = Math.min(min(plainBack), min(spreadBack));
      double plainSpread = (max(plainBack) - min(plainBack)) / 1e9;
      double spreadSpread = (max(spreadBack) - min(spreadBack)) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "[faultline-it] reconnects after a broker restart (%d producers per group; first at"
              + " %.1f s after start() was called)%n"
              + "  default backoff (50 ms → 1 s ±20 %%): spread %.2f s, offsets %s%n"
              + "  StaggeredBackoffConfig (max U[1 s, 4 s]): spread %.2f s, offsets %s%n",
          CLIENTS_PER_GROUP,
          (first - started) / 1e9,
          plainSpread,
          offsets(plainBack, first),
          spreadSpread,
          offsets(spreadBack, first));
      // The effect, against this run's own baseline: the default group, restarted alongside.
      assertThat(spreadSpread).isGreaterThan(plainSpread);
    } finally {
      running.set(false);
      for (Thread t : senders) {
        t.join(5_000);
      }
      for (KafkaProducer<String, String> p : concat(plain, spread)) {
        p.close(Duration.ofSeconds(5));
      }
    }
  }

  private static KafkaProducer<String, String> producer(
      KafkaCluster kafka, Map<String, Object> config, String clientId) {
    Map<String, Object> c = clientId == null ? config : withId(config, clientId);
    return new KafkaProducer<>(
        kafka.clientProperties(c), new StringSerializer(), new StringSerializer());
  }

  private static Map<String, Object> withId(Map<String, Object> config, String clientId) {
    Map<String, Object> copy = new HashMap<>(config);
    copy.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
    return copy;
  }

  /** Each producer's {@code connection-creation-total}: successful connections so far. */
  private static long[] creations(List<KafkaProducer<String, String>> producers) {
    long[] counts = new long[producers.size()];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = creationTotal(producers.get(i));
    }
    return counts;
  }

  private static long creationTotal(KafkaProducer<String, String> producer) {
    for (Map.Entry<org.apache.kafka.common.MetricName, ? extends Metric> e :
        producer.metrics().entrySet()) {
      if (e.getKey().name().equals("connection-creation-total")
          && e.getKey().group().equals("producer-metrics")) {
        return (long) ((Number) e.getValue().metricValue()).doubleValue();
      }
    }
    return 0;
  }

  private static void mark(
      List<KafkaProducer<String, String>> producers, long[] base, long[] back) {
    long now = System.nanoTime();
    for (int i = 0; i < back.length; i++) {
      if (back[i] == 0 && creationTotal(producers.get(i)) > base[i]) {
        back[i] = now;
      }
    }
  }

  private static boolean missing(long[] back) {
    return Arrays.stream(back).anyMatch(v -> v == 0);
  }

  private static long min(long[] v) {
    return Arrays.stream(v).min().orElseThrow();
  }

  private static long max(long[] v) {
    return Arrays.stream(v).max().orElseThrow();
  }

  private static String offsets(long[] back, long first) {
    return Arrays.toString(
        Arrays.stream(back)
            .sorted()
            .mapToObj(v -> String.format(Locale.ROOT, "%.1f", (v - first) / 1e9))
            .toArray());
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
