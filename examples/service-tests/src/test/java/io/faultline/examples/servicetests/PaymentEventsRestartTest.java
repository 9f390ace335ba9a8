package io.faultline.examples.servicetests;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.junit.FaultlineTest;
import io.faultline.testcontainers.BrokerRestart;
import io.faultline.testcontainers.KafkaFaults;
import io.faultline.testcontainers.ListenQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The payment service's producers through a broker restart, with Faultline: the broker's listen
 * queue is small on purpose ({@link KafkaFaults#smallListenBacklog}), every service instance's
 * producer must reconnect after the restart, and none of those connections may be turned away — no
 * reconnect storm. {@code @FaultlineTest} also fails the test if a producer's reconnect backoff had
 * no jitter (seen when the tests run with the agent).
 */
@FaultlineTest
class PaymentEventsRestartTest {

  private static final int INSTANCES = 24;

  static KafkaContainer kafka;

  @AutoClose KafkaFaults faults = KafkaFaults.on(kafka);

  @BeforeAll
  static void startKafka() {
    kafka = KafkaFaults.smallListenBacklog(KafkaFaults.prepare(Servers.kafka()), 8);
    kafka.start();
  }

  @AfterAll
  static void stopKafka() {
    kafka.stop();
  }

  @Test
  void everyInstanceKeepsPublishingAndNoReconnectIsTurnedAway() throws Exception {
    List<PaymentEvents> instances = new ArrayList<>();
    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.getBootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000"))) {
      for (int i = 0; i < INSTANCES; i++) {
        PaymentEvents events = new PaymentEvents(kafka.getBootstrapServers(), "i" + i);
        instances.add(events);
        events.paid(i, 10, Duration.ofSeconds(30));
      }

      BrokerRestart restart = faults.restartWithPreferredLeaderElection(admin);
      // The broker's namespace is new with the restart: its counters count only what came after.
      for (int i = 0; i < INSTANCES; i++) {
        instances.get(i).paid(i, 20, Duration.ofSeconds(30));
      }
      ListenQueue afterRestart = faults.listenQueue();

      System.out.println("[example] " + restart + ", then " + afterRestart);
      assertThat(afterRestart.overflows()).as("connections the full accept queue refused").isZero();
      assertThat(afterRestart.drops()).as("SYNs dropped at the listener").isZero();
    } finally {
      instances.forEach(PaymentEvents::close);
    }
  }
}
