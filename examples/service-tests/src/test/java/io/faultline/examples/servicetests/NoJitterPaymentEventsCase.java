package io.faultline.examples.servicetests;

import io.faultline.junit.FaultlineTest;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.kafka.KafkaContainer;

/**
 * A producer configured the way the LINE Kafka incident's were: a reconnect backoff of one fixed
 * second, no room for jitter. With the agent on the test JVM ({@code -javaagent} in Surefire's
 * {@code argLine}), {@code @FaultlineTest} fails this test with {@code
 * KAFKA_RECONNECT_BACKOFF_NO_JITTER}; the integration suite runs it that way to show the check
 * works. Not picked up by Surefire here: its name does not end in {@code Test}.
 */
@FaultlineTest
class NoJitterPaymentEventsCase {

  static KafkaContainer kafka;

  @BeforeAll
  static void startKafka() {
    kafka = Servers.kafka();
    kafka.start();
  }

  @AfterAll
  static void stopKafka() {
    kafka.stop();
  }

  @Test
  void publishesWithAFixedBackoff() throws Exception {
    try (PaymentEvents events =
        new PaymentEvents(
            kafka.getBootstrapServers(), "fixed", Duration.ofSeconds(1), Duration.ofSeconds(1))) {
      events.paid(1, 10, Duration.ofSeconds(30));
    }
  }
}
