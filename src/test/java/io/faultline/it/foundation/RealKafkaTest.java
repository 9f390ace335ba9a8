package io.faultline.it.foundation;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.Brokers;
import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The suite's Kafka is a real broker: records go in, come out, and survive a broker restart. */
@ExtendWith(RealServers.class)
class RealKafkaTest {

  @Test
  void producesAndConsumesOneRecord(KafkaCluster kafka) throws Exception {
    String topic = "round-trip-" + UUID.randomUUID();
    kafka.createTopic(topic, 1);

    RecordMetadata sent = send(kafka, topic, "hello");

    assertThat(sent.offset()).isZero();
    assertThat(consume(kafka, topic, 1)).containsExactly("hello");
  }

  @Test
  void threeNodesReplicateATopic(@Brokers(3) KafkaCluster kafka) throws Exception {
    String topic = "replicated-" + UUID.randomUUID();
    kafka.createTopic(topic, 3);

    try (Admin admin = Admin.create(kafka.clientProperties(Map.of()))) {
      assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(3);
      var description =
          admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic);
      assertThat(description.partitions()).allSatisfy(p -> assertThat(p.replicas()).hasSize(3));
    }
    send(kafka, topic, "to-three");
    assertThat(consume(kafka, topic, 1)).containsExactly("to-three");
  }

  @Test
  void aRestartedBrokerServesAgain(@Brokers(value = 1, dedicated = true) KafkaCluster kafka)
      throws Exception {
    String topic = "restart-" + UUID.randomUUID();
    kafka.createTopic(topic, 1);
    send(kafka, topic, "before");

    kafka.node(1).restart();

    send(kafka, topic, "after");
    assertThat(consume(kafka, topic, 2)).containsExactly("before", "after");
    assertThat(kafka.node(1).readProcFile("/proc/net/netstat")).contains("TcpExt:");
  }

  private static RecordMetadata send(KafkaCluster kafka, String topic, String value)
      throws Exception {
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            kafka.clientProperties(
                Map.of(
                    ProducerConfig.ACKS_CONFIG,
                    "all",
                    ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                    60_000)),
            new StringSerializer(),
            new StringSerializer())) {
      return producer.send(new ProducerRecord<>(topic, value)).get(60, TimeUnit.SECONDS);
    }
  }

  private static List<String> consume(KafkaCluster kafka, String topic, int count) {
    List<String> values = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(
            kafka.clientProperties(
                Map.of(
                    ConsumerConfig.GROUP_ID_CONFIG,
                    "g-" + UUID.randomUUID(),
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                    "earliest")),
            new StringDeserializer(),
            new StringDeserializer())) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (values.size() < count && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
          values.add(record.value());
        }
      }
    }
    return values;
  }
}
