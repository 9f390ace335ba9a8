package io.faultline.it.agent.app;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The clients of the reconnect-storm lab, a plain application with no Faultline code: {@code p}
 * idempotent producers (acks=all) that each send one numbered record every 100 ms, alternating
 * between the topic's two partitions, and {@code c} consumers that tail both partitions (assigned,
 * no group). Every client is its own instance, so each holds its own broker connections; buffers
 * are small so hundreds fit in one JVM.
 *
 * <p>Writes the {@code ready} file once every producer had a record acknowledged and every consumer
 * received one. On a line on standard input it stops, writes one {@code key seq} line per
 * acknowledged record to the {@code acked} file and prints {@code acked=A failed=F consumed=C}.
 *
 * <p>Arguments: bootstrap servers, topic, tag (prefix of the record keys), p, c, ready file, acked
 * file, and optionally the milliseconds between two sends of a producer (100), and the consumers'
 * {@code fetch.min.bytes} (1) and {@code fetch.max.wait.ms} (200).
 */
public final class KafkaStormClientsApp {

  private static final int PARTITIONS = 2;

  private KafkaStormClientsApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    // What the test measures starts with the first call: not before the agent has woven it.
    AgentReady.await();
    String bootstrap = args[0];
    String topic = args[1];
    String tag = args[2];
    int p = Integer.parseInt(args[3]);
    int c = Integer.parseInt(args[4]);
    Path ready = Path.of(args[5]);
    Path ackedFile = Path.of(args[6]);
    long sendIntervalMs = args.length > 7 ? Long.parseLong(args[7]) : 100;
    int fetchMinBytes = args.length > 8 ? Integer.parseInt(args[8]) : 1;
    int fetchMaxWaitMs = args.length > 9 ? Integer.parseInt(args[9]) : 200;

    List<KafkaProducer<String, String>> producers = new ArrayList<>();
    for (int i = 0; i < p; i++) {
      producers.add(new KafkaProducer<>(producerProps(bootstrap, tag + "-p" + i)));
    }
    List<KafkaConsumer<String, String>> consumers = new ArrayList<>();
    List<TopicPartition> partitions = new ArrayList<>();
    for (int part = 0; part < PARTITIONS; part++) {
      partitions.add(new TopicPartition(topic, part));
    }
    for (int i = 0; i < c; i++) {
      KafkaConsumer<String, String> consumer =
          new KafkaConsumer<>(
              consumerProps(bootstrap, tag + "-c" + i, fetchMinBytes, fetchMaxWaitMs));
      consumer.assign(partitions);
      consumers.add(consumer);
    }

    AtomicLong failed = new AtomicLong();
    ConcurrentLinkedQueue<String> acked = new ConcurrentLinkedQueue<>();
    AtomicLong ackedCount = new AtomicLong();
    boolean[] producerAcked = new boolean[p];
    AtomicLong producersAcked = new AtomicLong();
    Thread sender =
        new Thread(
            () -> {
              long seq = 0;
              while (!Thread.currentThread().isInterrupted()) {
                for (int i = 0; i < p; i++) {
                  int index = i;
                  String key = tag + "-p" + i;
                  String value = Long.toString(seq);
                  producers
                      .get(i)
                      .send(
                          new ProducerRecord<>(topic, (int) (seq % PARTITIONS), key, value),
                          (md, e) -> {
                            if (e != null) {
                              failed.incrementAndGet();
                              return;
                            }
                            acked.add(key + " " + value);
                            ackedCount.incrementAndGet();
                            synchronized (producerAcked) {
                              if (!producerAcked[index]) {
                                producerAcked[index] = true;
                                producersAcked.incrementAndGet();
                              }
                            }
                          });
                }
                seq++;
                try {
                  Thread.sleep(sendIntervalMs);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "sender");
    sender.start();

    // A few threads poll the consumers in turn without blocking; each consumer is only ever used
    // by its own thread.
    AtomicLong consumed = new AtomicLong();
    AtomicLong consumersReceived = new AtomicLong();
    int pollers = Math.max(1, Math.min(4, c));
    List<Thread> pollThreads = new ArrayList<>();
    for (int t = 0; t < pollers; t++) {
      List<KafkaConsumer<String, String>> mine = new ArrayList<>();
      for (int i = t; i < c; i += pollers) {
        mine.add(consumers.get(i));
      }
      Thread poller =
          new Thread(
              () -> {
                boolean[] received = new boolean[mine.size()];
                while (!Thread.currentThread().isInterrupted()) {
                  for (int i = 0; i < mine.size(); i++) {
                    ConsumerRecords<String, String> records = mine.get(i).poll(Duration.ZERO);
                    if (!records.isEmpty()) {
                      consumed.addAndGet(records.count());
                      if (!received[i]) {
                        received[i] = true;
                        consumersReceived.incrementAndGet();
                      }
                    }
                  }
                  try {
                    Thread.sleep(20);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              },
              "poller-" + t);
      poller.start();
      pollThreads.add(poller);
    }

    while (producersAcked.get() < p || consumersReceived.get() < c) {
      Thread.sleep(100);
    }
    ReadyFile.write(ready, "ready");
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();

    sender.interrupt();
    sender.join();
    for (KafkaProducer<String, String> producer : producers) {
      producer.flush();
    }
    for (Thread poller : pollThreads) {
      poller.interrupt();
      poller.join();
    }
    producers.parallelStream().forEach(KafkaProducer::close);
    consumers.parallelStream().forEach(KafkaConsumer::close);
    Files.write(ackedFile, acked);
    System.out.println(
        "acked=" + ackedCount.get() + " failed=" + failed.get() + " consumed=" + consumed.get());
    System.out.println("bye");
  }

  private static Properties producerProps(String bootstrap, String clientId) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 256 * 1024);
    props.put(ProducerConfig.BATCH_SIZE_CONFIG, 4 * 1024);
    props.put(ProducerConfig.SEND_BUFFER_CONFIG, 32 * 1024);
    props.put(ProducerConfig.RECEIVE_BUFFER_CONFIG, 32 * 1024);
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    return props;
  }

  private static Properties consumerProps(
      String bootstrap, String clientId, int fetchMinBytes, int fetchMaxWaitMs) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, fetchMinBytes);
    props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, fetchMaxWaitMs);
    props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 64 * 1024);
    props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 128 * 1024);
    props.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, 32 * 1024);
    props.put(ConsumerConfig.SEND_BUFFER_CONFIG, 32 * 1024);
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    return props;
  }
}
