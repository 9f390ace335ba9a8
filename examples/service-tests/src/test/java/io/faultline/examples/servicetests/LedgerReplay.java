package io.faultline.examples.servicetests;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Another service replaying the payment ledger from its start, over and over: it keeps the broker's
 * outgoing link full, so a slow link ({@code KafkaFaults.slowLink}) holds a standing queue that
 * every acknowledgement the broker sends waits in. That queue is the round trip the producers see —
 * a path with a real RTT, on which a 64 KiB window is too small.
 */
final class LedgerReplay implements AutoCloseable {

  static final String TOPIC = "ledger";

  private final Thread reader;
  private final AtomicLong bytes = new AtomicLong();
  private volatile boolean running = true;

  private LedgerReplay(String bootstrapServers) {
    KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(
                "bootstrap.servers", bootstrapServers,
                "client.id", "ledger-replay",
                "group.id", "ledger-replay",
                "enable.auto.commit", "false",
                "auto.offset.reset", "earliest",
                // The OS sizes the socket's buffer (Kafka's default is a fixed 64 KiB, which would
                // keep this reader's own window too small to fill the queue).
                "receive.buffer.bytes", "-1",
                // Long fetches: the link stays busy between them.
                "fetch.max.bytes", "8388608",
                "max.partition.fetch.bytes", "8388608"),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer());
    consumer.subscribe(List.of(TOPIC));
    reader =
        new Thread(
            () -> {
              try (consumer) {
                while (running) {
                  ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                  records.forEach(r -> bytes.addAndGet(r.value().length));
                  // At the end of the ledger, from its start again. (Seeking while a fetch is
                  // under way would throw that fetch away.)
                  for (TopicPartition p : consumer.assignment()) {
                    if (consumer.currentLag(p).orElse(-1) == 0) {
                      consumer.seekToBeginning(List.of(p));
                    }
                  }
                }
              }
            },
            "ledger-replay");
    reader.setDaemon(true);
    reader.start();
  }

  /** Writes {@code megabytes} of ledger (before the link is slowed), then replays it. */
  static LedgerReplay start(String bootstrapServers, int megabytes) throws Exception {
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            Map.of("bootstrap.servers", bootstrapServers, "client.id", "ledger-writer"),
            new ByteArraySerializer(),
            new ByteArraySerializer())) {
      byte[] entry = new byte[64 * 1024];
      for (int i = 0; i < megabytes * 16; i++) {
        producer.send(new ProducerRecord<>(TOPIC, entry));
      }
      producer.flush();
    }
    return new LedgerReplay(bootstrapServers);
  }

  /** Bytes replayed so far. */
  long bytes() {
    return bytes.get();
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    reader.join(TimeUnit.SECONDS.toMillis(10));
  }
}
