package io.faultline.it.agent.app;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A plain Kafka application with no Faultline code: a producer sends {@code records} records of
 * {@code size} bytes to {@code topic} (acks=all, waiting for each batch of 20), a consumer reads
 * them back; it prints {@code produced=N consumed=M}, then {@code ready}, and stays up (clients
 * open) until its standard input gets a line.
 *
 * <p>Arguments: bootstrap servers, topic, records, record size in bytes, a file to create when
 * ready (the parent reads the child's output only at its exit), and optionally extra producer
 * settings as {@code key=value,key=value} ({@code -} for none) and settings for both clients (e.g.
 * {@code security.protocol}), the same way.
 */
public final class KafkaTrafficApp {

  private KafkaTrafficApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    // What the test measures starts with the first call: not before the agent has woven it.
    AgentReady.await();
    String bootstrap = args[0];
    String topic = args[1];
    int records = Integer.parseInt(args[2]);
    int size = Integer.parseInt(args[3]);
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, "traffic-producer");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    if (args.length > 5) {
      putAll(p, args[5]);
    }
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    c.put(ConsumerConfig.CLIENT_ID_CONFIG, "traffic-consumer");
    c.put(ConsumerConfig.GROUP_ID_CONFIG, "traffic-" + topic);
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    if (args.length > 6) {
      putAll(p, args[6]);
      putAll(c, args[6]);
    }
    byte[] value = new byte[size];
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p);
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
      int produced = 0;
      while (produced < records) {
        int batch = Math.min(20, records - produced);
        var sent = new java.util.ArrayList<java.util.concurrent.Future<?>>();
        for (int i = 0; i < batch; i++) {
          sent.add(producer.send(new ProducerRecord<>(topic, value)));
        }
        for (var f : sent) {
          f.get(60, TimeUnit.SECONDS);
        }
        produced += batch;
      }
      consumer.subscribe(List.of(topic));
      int consumed = 0;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (consumed < records && System.nanoTime() < deadline) {
        ConsumerRecords<byte[], byte[]> got = consumer.poll(Duration.ofMillis(500));
        consumed += got.count();
      }
      System.out.println("produced=" + produced + " consumed=" + consumed);
      System.out.println("ready");
      System.out.flush();
      ReadyFile.write(
          java.nio.file.Path.of(args[4]), "produced=" + produced + " consumed=" + consumed);
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    }
    System.out.println("bye");
  }

  private static void putAll(Properties into, String settings) {
    if (settings.equals("-")) {
      return;
    }
    for (String kv : settings.split(",")) {
      int eq = kv.indexOf('=');
      into.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
  }
}
