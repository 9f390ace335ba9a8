package io.faultline.it.bench;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The workload of Kafka's {@code ConsumerPerformance}: one consumer in a fresh group reads {@code
 * records} records of a prepared topic from the beginning, {@code passes} times over. The latency
 * columns are per {@code poll} call that returned records (microseconds), since a consumer has no
 * per-record round trip. Run in a child JVM; prints one {@link PerfResult} line. Before the
 * measurement the consumer reads at least {@code warmup} records, going back to the topic's start
 * whenever it reaches the end, and on until the JIT is quiet or {@code warmupMaxSeconds} have
 * passed ({@link Warmup}); then it seeks to the start once more and measures a read of {@code
 * records × passes} records, going back to the start at the end as the warm-up did. The topic must
 * hold {@code records} records. More passes make a longer window of a topic that is quick to
 * prepare: a consumer reads a 3,000,000-record topic in about two seconds, in which one compilation
 * or collection moves its CPU per record by a tenth.
 *
 * <p>Arguments: bootstrap topic records [warmup [warmupMaxSeconds [passes]]]
 */
public final class ConsumerPerf {

  private ConsumerPerf() {}

  /** See the class comment. */
  public static void main(String[] args) {
    String bootstrap = args[0];
    String topic = args[1];
    int records = Integer.parseInt(args[2]);
    int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 0;
    int warmupMaxSeconds = args.length > 4 ? Integer.parseInt(args[4]) : 0;
    int passes = args.length > 5 ? Integer.parseInt(args[5]) : 1;
    long measured = (long) records * passes;
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "perf-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    // Grown if a run's polls return fewer records than a full batch; sized for 100 a poll.
    long[] pollLatencies = new long[(int) Math.min(Integer.MAX_VALUE - 8, measured / 100 + 1024)];
    int polls = 0;
    long count = 0;
    long bytes = 0;
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
      consumer.subscribe(List.of(topic));
      Warmup warm = new Warmup(warmup, warmupMaxSeconds);
      long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
      long warmed = 0;
      long warmedBytes = 0;
      Map<TopicPartition, Long> ends = null;
      while (warm.goesOn(warmed) && System.nanoTime() < deadline) {
        // The same work per batch as the measurement: a path the warm-up never took would be
        // compiled, and profiles it broke deoptimised, inside the measured window.
        ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(500));
        warmed += batch.count();
        warmedBytes += valueBytes(batch);
        if (ends == null && !consumer.assignment().isEmpty()) {
          ends = consumer.endOffsets(consumer.assignment());
          long held = ends.values().stream().mapToLong(Long::longValue).sum();
          if (held < records) {
            throw new IllegalArgumentException(
                topic + " holds " + held + " records; the measurement reads " + records);
          }
        }
        rewindAtEnd(consumer, ends);
      }
      // With no warm-up the group may not have joined yet: auto.offset.reset starts it at 0.
      consumer.seekToBeginning(consumer.assignment());
      long start = 0;
      long cpuStart = 0;
      long jitStart = 0;
      ThreadCpu threads = null;
      deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
      while (count < measured && System.nanoTime() < deadline) {
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
          jitStart = CompilerCpu.nanos();
          threads = ThreadCpu.startIfAsked();
        }
        long latency = (System.nanoTime() - before) / 1000;
        if (polls == pollLatencies.length) {
          pollLatencies = java.util.Arrays.copyOf(pollLatencies, polls * 2);
        }
        pollLatencies[polls++] = latency;
        count += batch.count();
        bytes += valueBytes(batch);
        if (passes > 1) {
          if (ends == null) {
            ends = consumer.endOffsets(consumer.assignment());
          }
          rewindAtEnd(consumer, ends);
        }
      }
      long elapsed = System.nanoTime() - start;
      long cpu = PerfResult.processCpuNanos() - cpuStart;
      long jit = CompilerCpu.nanos() - jitStart;
      if (threads != null) {
        threads.print();
      }
      // Printed so that the warm-up's reads are used, and the JIT cannot drop them.
      System.err.println("warm-up read " + warmed + " records, " + warmedBytes + " bytes");
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
                  Math.max(0, measured - count), // a last poll may return more than needed
                  cpu,
                  warm.nanos(),
                  warm.quiet(),
                  jit)
              .toLine());
    }
  }

  /** Goes back to the start of each partition whose end the consumer has reached. */
  private static void rewindAtEnd(
      KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends) {
    if (ends == null) {
      return;
    }
    for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
      if (consumer.position(end.getKey()) >= end.getValue()) {
        consumer.seekToBeginning(List.of(end.getKey()));
      }
    }
  }

  private static long valueBytes(ConsumerRecords<byte[], byte[]> batch) {
    long bytes = 0;
    for (ConsumerRecord<byte[], byte[]> r : batch) {
      bytes += r.value().length;
    }
    return bytes;
  }
}
