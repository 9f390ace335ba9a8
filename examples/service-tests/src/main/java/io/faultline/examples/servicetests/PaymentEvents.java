package io.faultline.examples.servicetests;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The payment service's events: one producer per service instance. Its reconnect backoff grows from
 * 100 ms to 2 s with Kafka's jitter, so instances that lose a broker together do not all reconnect
 * at the same moment — the reconnect storm of the LINE Kafka incident.
 */
public final class PaymentEvents implements AutoCloseable {

  /** The topic payments are published to. */
  public static final String TOPIC = "payments";

  private final KafkaProducer<String, String> producer;

  /** A producer for instance {@code instance} of the service. */
  public PaymentEvents(String bootstrapServers, String instance) {
    this(bootstrapServers, instance, Duration.ofMillis(100), Duration.ofSeconds(2));
  }

  /**
   * A producer whose reconnect backoff grows from {@code backoff} to {@code maxBackoff}. Equal
   * values leave no room for jitter: every instance retries on the same schedule.
   */
  public PaymentEvents(
      String bootstrapServers, String instance, Duration backoff, Duration maxBackoff) {
    this.producer =
        new KafkaProducer<>(
            Map.of(
                "bootstrap.servers",
                bootstrapServers,
                "client.id",
                "payments-" + instance,
                "acks",
                "all",
                "reconnect.backoff.ms",
                Long.toString(backoff.toMillis()),
                "reconnect.backoff.max.ms",
                Long.toString(maxBackoff.toMillis()),
                // Receipts travel in large batches: a request carries up to 256 KiB.
                "batch.size",
                "262144",
                "linger.ms",
                "5",
                // The OS sizes the send buffer to the path: Kafka's fixed 128 KiB would cap the
                // producer below what a long path needs (Faultline's
                // KAFKA_SOCKET_BUFFER_BELOW_BDP).
                "send.buffer.bytes",
                "-1"),
            new StringSerializer(),
            new StringSerializer());
  }

  /** Publishes that {@code account} paid {@code amount}; returns once the broker has it. */
  public void paid(int account, int amount, Duration timeout)
      throws InterruptedException, ExecutionException, TimeoutException {
    producer
        .send(new ProducerRecord<>(TOPIC, Integer.toString(account), Integer.toString(amount)))
        .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Publishes that {@code account} paid {@code amount}, with its receipt, without waiting: the
   * future completes once the broker has it, or fails.
   */
  public CompletableFuture<Void> paidWithReceipt(int account, int amount, String receipt) {
    CompletableFuture<Void> acked = new CompletableFuture<>();
    producer.send(
        new ProducerRecord<>(TOPIC, Integer.toString(account), amount + "\n" + receipt),
        (metadata, error) -> {
          if (error == null) {
            acked.complete(null);
          } else {
            acked.completeExceptionally(error);
          }
        });
    return acked;
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}
