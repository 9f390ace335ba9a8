package io.faultline.examples.demo.service;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The LINE Kafka and Tencent CKafka incidents' side of the service: Kafka producers, configured as
 * applications do.
 */
final class ProducerFleet implements AutoCloseable {

  static final String TOPIC = "orders";

  private final String bootstrap;
  private final List<KafkaProducer<String, String>> open = new ArrayList<>();
  private List<KafkaProducer<String, String>> fleet = List.of();
  private Thread sender;
  private volatile long markMillis = Long.MAX_VALUE;
  private AtomicLongArray firstAckAfterMark = new AtomicLongArray(0);
  private final AtomicLong acked = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();

  ProducerFleet(String bootstrap) {
    this.bootstrap = bootstrap;
  }

  /**
   * One producer sends {@code records} records, keyed so they go to every partition (so to every
   * broker), and waits for every acknowledgement.
   */
  Map<String, Object> produce(int records) throws Exception {
    Properties p = base("orders-writer", bootstrap);
    KafkaProducer<String, String> producer = keep(new KafkaProducer<>(p));
    long start = System.nanoTime();
    List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
    for (int i = 0; i < records; i++) {
      sent.add(producer.send(new ProducerRecord<>(TOPIC, "order-" + i, "x".repeat(512))));
    }
    for (var f : sent) {
      f.get(60, TimeUnit.SECONDS);
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("acked", records);
    result.put("elapsed_ms", (System.nanoTime() - start) / 1_000_000);
    return result;
  }

  /**
   * Starts {@code n} producers, each sending a record to every partition every 100 ms until {@link
   * #stopFleet}.
   */
  synchronized Map<String, Object> startFleet(int n) throws Exception {
    List<KafkaProducer<String, String>> started = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Properties p = base("fleet-" + i, bootstrap);
      p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
      started.add(keep(new KafkaProducer<>(p)));
    }
    fleet = List.copyOf(started);
    firstAckAfterMark = new AtomicLongArray(n);
    AtomicLongArray everAcked = new AtomicLongArray(n);
    sender = new Thread(() -> sendUntilInterrupted(everAcked), "fleet-sender");
    sender.setDaemon(true);
    sender.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (IntStream.range(0, n).anyMatch(i -> everAcked.get(i) == 0)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("not every producer of the fleet got an acknowledgement");
      }
      Thread.sleep(50);
    }
    return Map.of("producers", n);
  }

  private void sendUntilInterrupted(AtomicLongArray everAcked) {
    List<KafkaProducer<String, String>> producers = fleet;
    AtomicLongArray first = firstAckAfterMark;
    int partitions = producers.get(0).partitionsFor(TOPIC).size();
    long round = 0;
    while (!Thread.currentThread().isInterrupted()) {
      for (int i = 0; i < producers.size(); i++) {
        int index = i;
        for (int partition = 0; partition < partitions; partition++) {
          producers
              .get(i)
              .send(
                  new ProducerRecord<>(TOPIC, partition, "fleet-" + i, "r" + round),
                  (metadata, e) -> {
                    if (e != null) {
                      failed.incrementAndGet();
                      return;
                    }
                    acked.incrementAndGet();
                    long now = System.currentTimeMillis();
                    everAcked.compareAndSet(index, 0, now);
                    if (now >= markMillis) {
                      first.compareAndSet(index, 0, now);
                    }
                  });
        }
      }
      round++;
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** From now on, remember each producer's first acknowledgement. */
  synchronized Map<String, Object> mark() {
    for (int i = 0; i < firstAckAfterMark.length(); i++) {
      firstAckAfterMark.set(i, 0);
    }
    markMillis = System.currentTimeMillis();
    return Map.of("at", markMillis);
  }

  /** Each producer's first acknowledgement since {@link #mark} (epoch ms, 0 for none yet). */
  synchronized Map<String, Object> report() {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put(
        "first_acks",
        IntStream.range(0, firstAckAfterMark.length())
            .mapToObj(i -> Long.toString(firstAckAfterMark.get(i)))
            .collect(Collectors.joining(",")));
    result.put("acked", acked.get());
    result.put("failed", failed.get());
    return result;
  }

  /** Stops the fleet's sender and closes its producers. */
  synchronized Map<String, Object> stopFleet() throws InterruptedException {
    if (sender != null) {
      sender.interrupt();
      sender.join();
      sender = null;
    }
    for (KafkaProducer<String, String> producer : fleet) {
      producer.close(java.time.Duration.ofSeconds(5));
      open.remove(producer);
    }
    fleet = List.of();
    return Map.of("acked", acked.get(), "failed", failed.get());
  }

  /**
   * A new producer (so a new connection, made now) to {@code servers}, which sends {@code records}
   * records of 16 KiB and stays open, so the agent keeps sampling its connection.
   */
  Map<String, Object> freshProducer(String servers, int records) throws Exception {
    Properties p = base("late-joiner-" + System.currentTimeMillis() % 10000, servers);
    KafkaProducer<String, String> producer = keep(new KafkaProducer<>(p));
    long start = System.nanoTime();
    String value = "y".repeat(16 * 1024);
    List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
    for (int i = 0; i < records; i++) {
      sent.add(producer.send(new ProducerRecord<>(TOPIC, "late-" + i, value)));
    }
    for (var f : sent) {
      f.get(60, TimeUnit.SECONDS);
    }
    long ms = Math.max(1, (System.nanoTime() - start) / 1_000_000);
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("client", p.get(ProducerConfig.CLIENT_ID_CONFIG));
    result.put("records", records);
    result.put("elapsed_ms", ms);
    return result;
  }

  private KafkaProducer<String, String> keep(KafkaProducer<String, String> producer) {
    synchronized (open) {
      open.add(producer);
    }
    return producer;
  }

  private static Properties base(String clientId, String servers) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    return p;
  }

  @Override
  public void close() throws InterruptedException {
    stopFleet();
    synchronized (open) {
      for (KafkaProducer<String, String> producer : open) {
        producer.close(java.time.Duration.ofSeconds(2));
      }
      open.clear();
    }
  }
}
