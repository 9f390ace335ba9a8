package io.faultline.examples.servicetests;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.junit.FaultlineTest;
import io.faultline.testcontainers.KafkaFaults;
import io.faultline.testcontainers.NetworkFault;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The payment service's producer keeps its latency after it connected while the broker answered
 * with SYN cookies and no timestamps — as after the LINE Kafka incident's restarts, with the
 * handshake of the Tencent CKafka incident ({@link KafkaFaults#loseWindowScaling()}): such a
 * connection has no window scaling, a 64 KiB window, and on a path with a real round trip the
 * producer falls behind. Here the round trip is a standing queue: the broker's link is slow ({@link
 * KafkaFaults#slowLink}) and kept full by another service replaying the ledger, so every
 * acknowledgement the broker sends waits in it.
 *
 * <p>Two instances carry the same fixed load of receipts at the same time: one connected before the
 * fault (the baseline), one started while it was on, whose connections keep their 64 KiB window
 * after the cause has gone. Its p99 latency must stay within {@value #RATIO} times the baseline's.
 * It does when the agent recycles the crippled connection ({@code -javaagent} with {@code
 * kafka.recycle=on}): the client reconnects, with window scaling. Without recycling the test fails
 * — the integration suite runs it both ways. The client reaches the broker at the container's own
 * address, so the connection the agent watches is the broker's (needs an engine the tests run
 * beside, as on a Linux CI runner); the faults need root, {@code nsenter} and {@code nft} on the
 * host, or an image with {@code nft} and {@code tc}. Not picked up by Surefire here: its name does
 * not end in {@code Test}.
 */
@FaultlineTest
class PaymentEventsLatencyCase {

  static final double RATIO = 3;

  private static final FixedLoad RECEIPTS = new FixedLoad(250, 4096);
  // Not measured: a crippled connection is held back by its window only once the sender's
  // congestion window has grown past 64 KiB (3-11 s into the load here, about 20 s on a slower
  // runner), and the agent recycles it after three samples that show it so.
  private static final Duration WARM_UP = Duration.ofSeconds(40);
  private static final Duration MEASURED = Duration.ofSeconds(10);
  private static final Duration DRAIN = Duration.ofSeconds(20);

  static KafkaContainer kafka;
  static String bootstrap;

  @AutoClose KafkaFaults faults = KafkaFaults.on(kafka);

  @BeforeAll
  static void startKafka() throws Exception {
    kafka =
        KafkaFaults.prepare(Servers.kafkaOnItsAddress())
            // The OS sizes the broker's socket buffers too: with Kafka's fixed 100 KiB its receive
            // window would cap every producer near a window without scaling anyway.
            .withEnv("KAFKA_SOCKET_RECEIVE_BUFFER_BYTES", "-1")
            .withEnv("KAFKA_SOCKET_SEND_BUFFER_BYTES", "-1")
            // Loss-based congestion control, as Linux's default (cubic) is, fills the slow link's
            // queue; a host that chose BBR would keep that queue, and the round trip, short.
            // Reno is the loss-based one a container may always choose.
            .withCreateContainerCmdModifier(
                cmd -> {
                  Map<String, String> sysctls = new HashMap<>();
                  if (cmd.getHostConfig().getSysctls() != null) {
                    sysctls.putAll(cmd.getHostConfig().getSysctls());
                  }
                  sysctls.put("net.ipv4.tcp_congestion_control", "reno");
                  cmd.getHostConfig().withSysctls(sysctls);
                });
    kafka.start();
    bootstrap = Servers.ownAddress(kafka);
    try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", bootstrap))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(PaymentEvents.TOPIC, 1, (short) 1),
                  new NewTopic(LedgerReplay.TOPIC, 1, (short) 1)))
          .all()
          .get();
    }
  }

  @AfterAll
  static void stopKafka() {
    kafka.stop();
  }

  @Test
  void aProducerThatReconnectedWithoutWindowScalingKeepsItsLatency() throws Exception {
    PaymentEvents after;
    try (PaymentEvents before = new PaymentEvents(bootstrap, "before")) {
      before.paid(0, 1, Duration.ofSeconds(30));
      // A second instance starts while connections lose window scaling (a Kafka client connects as
      // it is built). Then the cause is gone; the connections made during it keep their 64 KiB
      // window until something closes them.
      try (NetworkFault lost = faults.loseWindowScaling()) {
        after = new PaymentEvents(bootstrap, "after");
        after.paid(0, 1, Duration.ofSeconds(30));
      }

      try (after;
          LedgerReplay replay = LedgerReplay.start(bootstrap, 24)) {
        faults.slowLink("8mbit");
        // To place the agent's log lines (a recycle) against the warm-up.
        System.out.println(
            "[example] the load begins at " + LocalTime.now(ZoneOffset.UTC) + " UTC");
        // Both instances carry the same load at the same time, over the same link: the one
        // connected before the fault is the baseline.
        CompletableFuture<Latencies> baselineRun = runAsync(before);
        Latencies reconnected = RECEIPTS.run(after, WARM_UP, WARM_UP.plus(MEASURED), DRAIN);
        Latencies baseline = baselineRun.get();
        System.out.println("[example] baseline, connected before the fault: " + baseline);
        System.out.println("[example] connected while window scaling was lost: " + reconnected);
        System.out.printf(
            "[example] p99 ratio %.2f (at most %.0f); ledger replayed %d MB; the slow link: %s%n",
            reconnected.millis(0.99) / baseline.millis(0.99),
            RATIO,
            replay.bytes() >> 20,
            faults.linkStatistics().replace('\n', ' '));

        assertThat(reconnected.millis(0.99))
            .as(
                "p99 latency (ms) of the instance that connected without window scaling, against"
                    + " %.0f ms for the one connected before (the agent with kafka.recycle=on"
                    + " recycles its connection)",
                baseline.millis(0.99))
            .isLessThanOrEqualTo(RATIO * baseline.millis(0.99));
      }
    }
  }

  private static CompletableFuture<Latencies> runAsync(PaymentEvents events) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return RECEIPTS.run(events, WARM_UP, WARM_UP.plus(MEASURED), DRAIN);
          } catch (Exception e) {
            throw new CompletionException(e);
          }
        },
        runnable -> new Thread(runnable, "baseline-load").start());
  }
}
