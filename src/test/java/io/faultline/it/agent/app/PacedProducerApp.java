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

/**
 * A plain producer with no Faultline code that sends large records at a steady pace to every
 * partition of a topic, with small socket buffers ({@code send.buffer.bytes=16384}) so that a
 * request cannot be handed to the kernel in one write: {@code perSecond} records of {@code size}
 * bytes per partition and second, for {@code seconds} seconds, acks=all. It then writes {@code
 * acked=N failed=M} to the ready file and stays up (producer open) until its standard input gets a
 * line.
 *
 * <p>Arguments: bootstrap servers, topic, partitions, record size in bytes, records per partition
 * and second, seconds, ready file, and optionally more producer settings as {@code key=value,...}
 * (e.g. {@code security.protocol}).
 */
public final class PacedProducerApp {

  private PacedProducerApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    // What the test measures starts with the first call: not before the agent has woven it.
    AgentReady.await();
    String bootstrap = args[0];
    String topic = args[1];
    int partitions = Integer.parseInt(args[2]);
    int size = Integer.parseInt(args[3]);
    int perSecond = Integer.parseInt(args[4]);
    int seconds = Integer.parseInt(args[5]);
    Path ready = Path.of(args[6]);
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, "paced-producer");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    p.put(ProducerConfig.SEND_BUFFER_CONFIG, 16384);
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, size + 1024);
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * size + 4096);
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    if (args.length > 7) {
      for (String kv : args[7].split(",")) {
        int eq = kv.indexOf('=');
        p.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
    }
    byte[] value = new byte[size];
    new java.util.Random(7).nextBytes(value); // incompressible, in case a broker recompresses
    int acked = 0;
    int failed = 0;
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      List<Future<RecordMetadata>> sent = new ArrayList<>();
      long start = System.nanoTime();
      long periodNanos = TimeUnit.SECONDS.toNanos(1) / perSecond;
      for (long tick = 0; tick < (long) seconds * perSecond; tick++) {
        long due = start + tick * periodNanos;
        long wait = due - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        for (int partition = 0; partition < partitions; partition++) {
          sent.add(producer.send(new ProducerRecord<>(topic, partition, null, value)));
        }
      }
      for (Future<RecordMetadata> f : sent) {
        try {
          f.get(120, TimeUnit.SECONDS);
          acked++;
        } catch (Exception e) {
          failed++;
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
