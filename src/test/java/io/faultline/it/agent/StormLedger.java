package io.faultline.it.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Checks that no acknowledged record was lost and none was written twice: reads the whole topic
 * back and compares it with the {@code key seq} lines the producers wrote for every acknowledged
 * record.
 */
final class StormLedger {

  /** One phase's account. */
  record Account(long acked, long distinctInTopic, long lost, long duplicated) {}

  private final Map<String, Integer> inTopic = new HashMap<>();

  private StormLedger() {}

  /** Reads every record of {@code topic}'s {@code partitions} from the beginning. */
  static StormLedger read(String bootstrap, String topic, int partitions) {
    StormLedger ledger = new StormLedger();
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, "storm-ledger-" + UUID.randomUUID());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
      List<TopicPartition> tps =
          java.util.stream.IntStream.range(0, partitions)
              .mapToObj(p -> new TopicPartition(topic, p))
              .toList();
      consumer.assign(tps);
      consumer.seekToBeginning(tps);
      Map<TopicPartition, Long> end = consumer.endOffsets(tps, Duration.ofSeconds(30));
      long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
      while (tps.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("could not read " + topic + " to its end " + end);
        }
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
          ledger.inTopic.merge(r.key() + " " + r.value(), 1, Integer::sum);
        }
      }
    }
    return ledger;
  }

  /**
   * The account of the records whose keys start with {@code keyPrefix}, against the acknowledged
   * records listed in {@code ackedFiles}.
   */
  Account account(String keyPrefix, List<Path> ackedFiles) throws IOException {
    long acked = 0;
    long lost = 0;
    for (Path file : ackedFiles) {
      for (String line : Files.readAllLines(file)) {
        if (line.isBlank()) {
          continue;
        }
        acked++;
        if (!inTopic.containsKey(line)) {
          lost++;
        }
      }
    }
    long distinct = 0;
    long duplicated = 0;
    for (Map.Entry<String, Integer> e : inTopic.entrySet()) {
      if (e.getKey().startsWith(keyPrefix)) {
        distinct++;
        duplicated += e.getValue() - 1;
      }
    }
    return new Account(acked, distinct, lost, duplicated);
  }
}
