package io.faultline.it.agent.app;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A plain idempotent producer (acks=all, {@code enable.idempotence=true}) with no Faultline code:
 * {@code records} records keyed {@code k-000000}, {@code k-000001}, ... of {@code size} bytes,
 * {@code perSecond} a second, each in a request of its own. It then writes {@code acked=N failed=M}
 * to the ready file and stays up until its standard input gets a line.
 *
 * <p>Arguments: bootstrap servers, topic, records, record size in bytes, records per second, ready
 * file.
 */
public final class IdempotentProducerApp {

  private IdempotentProducerApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    // What the test measures starts with the first call: not before the agent has woven it.
    AgentReady.await();
    String bootstrap = args[0];
    String topic = args[1];
    int records = Integer.parseInt(args[2]);
    int size = Integer.parseInt(args[3]);
    int perSecond = Integer.parseInt(args[4]);
    Path ready = Path.of(args[5]);
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, "idempotent-producer");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, size + 1024);
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * size + 4096);
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    byte[] value = new byte[size];
    new java.util.Random(11).nextBytes(value);
    int acked = 0;
    int failed = 0;
    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p)) {
      List<Future<RecordMetadata>> sent = new ArrayList<>();
      long start = System.nanoTime();
      long periodNanos = TimeUnit.SECONDS.toNanos(1) / perSecond;
      for (int i = 0; i < records; i++) {
        long wait = start + i * periodNanos - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        sent.add(producer.send(new ProducerRecord<>(topic, String.format("k-%06d", i), value)));
      }
      for (Future<RecordMetadata> f : sent) {
        try {
          f.get(120, TimeUnit.SECONDS);
          acked++;
        } catch (Exception e) {
          failed++;
          System.out.println("failed: " + e);
        }
      }
      String line = "acked=" + acked + " failed=" + failed;
      System.out.println(line);
      System.out.flush();
      ReadyFile.write(ready, line);
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    }
    System.out.println("bye");
  }
}
