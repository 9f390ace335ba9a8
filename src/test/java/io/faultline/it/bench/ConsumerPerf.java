package io.faultline.it.bench;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The workload of Kafka's {@code ConsumerPerformance}: one consumer in a fresh group reads {@code
 * records} records of a prepared topic from the beginning. The latency columns are per {@code poll}
 * call that returned records (microseconds), since a consumer has no per-record round trip. Run in
 * a child JVM; prints one {@link PerfResult} line. The first {@code warmup} records are read before
 * the measurement starts (the topic holds {@code warmup + records}).
 *
 * <p>Arguments: bootstrap topic records [warmup]
 */
public final class ConsumerPerf {

  private ConsumerPerf() {}

  /** See the class comment. */
  public static void main(String[] args) {
    String bootstrap = args[0];
    String topic = args[1];
    int records = Integer.parseInt(args[2]);
    int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 0;
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "perf-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    long[] pollLatencies = new long[records + 1];
    int polls = 0;
    long count = 0;
    long bytes = 0;
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
      consumer.subscribe(List.of(topic));
      long start = 0;
      long cpuStart = 0;
      ThreadCpu threads = null;
      long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
      long warmed = 0;
      while (warmed < warmup && System.nanoTime() < deadline) {
        warmed += consumer.poll(Duration.ofMillis(500)).count();
      }
      while (count < records && System.nanoTime() < deadline) {
        long before = System.nanoTime();
        ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(500));
        if (batch.isEmpty()) {
          continue;
        }
        if (start == 0) {
          // The clock starts with the first records: group join and assignment are not the
          // fetch path.
          start = before;
          cpuStart = PerfResult.processCpuNanos();
          threads = ThreadCpu.startIfAsked();
        }
        pollLatencies[polls++] = (System.nanoTime() - before) / 1000;
        for (ConsumerRecord<byte[], byte[]> r : batch) {
          count++;
          bytes += r.value().length;
        }
      }
      long elapsed = System.nanoTime() - start;
      long cpu = PerfResult.processCpuNanos() - cpuStart;
      if (threads != null) {
        threads.print();
      }
      long[] sorted = java.util.Arrays.copyOf(pollLatencies, polls);
      java.util.Arrays.sort(sorted);
      System.out.println(
          new PerfResult(
                  count,
                  elapsed,
                  bytes,
                  Stats.percentileOfSorted(sorted, 50),
                  Stats.percentileOfSorted(sorted, 99),
                  Stats.percentileOfSorted(sorted, 99.9),
                  Math.max(0, records - count), // a last poll may return more than needed
                  cpu)
              .toLine());
    }
  }
}
