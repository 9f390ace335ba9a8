package io.faultline.it.bench;

import java.time.Duration;
import java.util.Arrays;
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
 * passed, with a pause and again when it takes turns ({@link Warmup}), and on to the topic's end,
 * where it goes back to the start; from there it measures a read of {@code records × passes}
 * records, going back to the start at the end as the warm-up did. The topic must hold {@code
 * records} records. More passes make a longer window of a topic that is quick to prepare: a
 * consumer reads a 3,000,000-record topic in about two seconds, in which one compilation or
 * collection moves its CPU per record by a tenth. With {@code turns}, the measured records go in
 * that many equal turns that {@link TakingTurns} hands out ({@link Turns}); a turn ends with the
 * poll that reaches its share.
 *
 * <p>Arguments: bootstrap topic records [warmup [warmupMaxSeconds [passes [turns]]]]
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
    Turns turns = Turns.of(args.length > 6 ? Integer.parseInt(args[6]) : 0);
    long measured = (long) records * passes;
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "perf-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
      consumer.subscribe(List.of(topic));
      Poller poller = new Poller(consumer, topic, records, measured);
      Warmup warm = new Warmup(warmup, warmupMaxSeconds, turns.waits());
      long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
      while (warm.goesOn(poller.records) && System.nanoTime() < deadline) {
        // The same work per batch as the measurement: a path the warm-up never took would be
        // compiled, and profiles it broke deoptimised, inside the measured window.
        poller.poll(true);
        turns.rehearse();
      }
      // The warm-up ends where it goes back to the topic's start, at its end, so the measurement
      // starts from there the way each of its passes does. A seek from the middle of the topic
      // dropped the fetch the consumer had buffered, a path the warm-up never took: the JIT
      // deoptimised the client's fetch path at the first measured poll and compiled it again
      // inside the turns, 0.2-0.7 s of the child's one CPU.
      while (warmup > 0 && !poller.rewound && System.nanoTime() < deadline) {
        poller.poll(true);
        turns.rehearse();
      }
      long warmed = poller.records;
      long warmedBytes = poller.bytes;
      if (!poller.rewound) {
        // With no warm-up the group may not have joined yet: auto.offset.reset starts it at 0.
        consumer.seekToBeginning(consumer.assignment());
      }
      poller.restart();
      turns.ready();
      ThreadCpu threads = ThreadCpu.startIfAsked();
      for (int turn = 0; turn < turns.count(); turn++) {
        long until = turns.firstOf(turn + 1, measured);
        turns.await();
        deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        boolean started = false;
        while (poller.records < until && System.nanoTime() < deadline) {
          // With one pass the measurement reads the topic once, without going back to its start.
          if (poller.poll(passes > 1) && !started) {
            // The clock starts with the first records: group join and assignment are not the
            // fetch path.
            turns.start(poller.lastPollStart);
            started = true;
          }
        }
        turns.end();
      }
      if (threads != null) {
        threads.print();
      }
      // Printed so that the warm-up's reads are used, and the JIT cannot drop them.
      System.err.println(
          "warm-up read "
              + warmed
              + " records, "
              + warmedBytes
              + " bytes; rehearsed turns read "
              + turns.rehearsedNanos()
              + " ns");
      long[] sorted = Arrays.copyOf(poller.latencies, poller.polls);
      Arrays.sort(sorted);
      System.out.println(
          new PerfResult(
                  poller.records,
                  turns.elapsedNanos(),
                  poller.bytes,
                  Stats.percentileOfSorted(sorted, 50),
                  Stats.percentileOfSorted(sorted, 99),
                  Stats.percentileOfSorted(sorted, 99.9),
                  Math.max(0, measured - poller.records), // a last poll may return more
                  turns.cpuNanos(),
                  warm.nanos(),
                  warm.quiet(),
                  turns.jitNanos())
              .toLine());
    }
  }

  /**
   * One timed {@code poll} at a time, in the warm-up and the measurement alike. A method of its
   * own, called for each poll, so that the JIT compiles it during the warm-up: in a loop of {@code
   * main}, called once and so compiled by its back-edges only, the client's {@code poll},
   * deoptimised early in the warm-up, stayed at C1 until 7-9 s into the measured window and was
   * recompiled by C2 there, with the agent and without (-XX:+PrintCompilation).
   */
  private static final class Poller {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;
    private final int topicRecords;
    private Map<TopicPartition, Long> ends;
    // Grown if a run's polls return fewer records than a full batch; sized for 100 a poll.
    long[] latencies;
    int polls;
    long records;
    long bytes;
    long lastPollStart;
    // Whether the last poll reached the topic's end and went back to its start.
    boolean rewound;

    Poller(KafkaConsumer<byte[], byte[]> consumer, String topic, int topicRecords, long measured) {
      this.consumer = consumer;
      this.topic = topic;
      this.topicRecords = topicRecords;
      this.latencies = new long[(int) Math.min(Integer.MAX_VALUE - 8, measured / 100 + 1024)];
    }

    /**
     * Polls once; a poll that returned records counts them and its latency (µs). With {@code
     * rewind}, goes back to the start of each partition whose end it reached. Returns whether
     * records came.
     */
    boolean poll(boolean rewind) {
      long before = System.nanoTime();
      ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(500));
      if (ends == null && !consumer.assignment().isEmpty()) {
        ends = consumer.endOffsets(consumer.assignment());
        long held = ends.values().stream().mapToLong(Long::longValue).sum();
        if (held < topicRecords) {
          throw new IllegalArgumentException(
              topic + " holds " + held + " records; the measurement reads " + topicRecords);
        }
      }
      rewound = rewind && rewindAtEnd(consumer, ends);
      if (batch.isEmpty()) {
        return false;
      }
      long latency = (System.nanoTime() - before) / 1000;
      if (polls == latencies.length) {
        latencies = Arrays.copyOf(latencies, polls * 2);
      }
      latencies[polls++] = latency;
      lastPollStart = before;
      records += batch.count();
      bytes += valueBytes(batch);
      return true;
    }

    /** Forgets what was read so far: the measurement starts. */
    void restart() {
      polls = 0;
      records = 0;
      bytes = 0;
    }
  }

  /**
   * Goes back to the start of each partition whose end the consumer has reached; returns whether it
   * did for any.
   */
  private static boolean rewindAtEnd(
      KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends) {
    if (ends == null) {
      return false;
    }
    boolean rewound = false;
    for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
      if (consumer.position(end.getKey()) >= end.getValue()) {
        consumer.seekToBeginning(List.of(end.getKey()));
        rewound = true;
      }
    }
    return rewound;
  }

  private static long valueBytes(ConsumerRecords<byte[], byte[]> batch) {
    long bytes = 0;
    for (ConsumerRecord<byte[], byte[]> r : batch) {
      bytes += r.value().length;
    }
    return bytes;
  }
}
