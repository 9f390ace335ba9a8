package io.faultline.it.bench;

import java.util.Arrays;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The workload of Kafka's {@code ProducerPerformance} ({@code kafka-tools} 4.4.0 is not on Maven
 * Central): {@code records} records of {@code recordSize} random bytes to one topic, acks=all, at
 * most {@code throughput} records/s ({@code -1} = uncapped), latency measured from {@code send} to
 * its callback. At least {@code warmup} records go first, at the same pace and outside the
 * measurement (ProducerPerformance's {@code --warmup-records}), and more until the JIT is quiet or
 * {@code warmupMaxSeconds} have passed, with a pause and again when it takes turns ({@link
 * Warmup}). With {@code turns}, the measured records go in that many equal turns that {@link
 * TakingTurns} hands out ({@link Turns}), each paced from its own start and flushed before it ends.
 * Run in a child JVM; prints one {@link PerfResult} line.
 *
 * <p>Arguments: bootstrap topic records recordSize throughput [warmup [warmupMaxSeconds [turns]]]
 */
public final class ProducerPerf {

  /** Records per {@link #sendRange} call: the warm-up checks the JIT between two calls. */
  private static final int STEP = 100;

  /**
   * Records between two flushes in the warm-up: more than the producer's 32 MiB buffer holds, so
   * that the warm-up also sends with the buffer full, as the uncapped measurement does.
   */
  static final int FLUSH_EVERY = 200_000;

  private ProducerPerf() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    String bootstrap = args[0];
    String topic = args[1];
    int records = Integer.parseInt(args[2]);
    int recordSize = Integer.parseInt(args[3]);
    long throughput = Long.parseLong(args[4]);
    int warmup = args.length > 5 ? Integer.parseInt(args[5]) : 0;
    int warmupMaxSeconds = args.length > 6 ? Integer.parseInt(args[6]) : 0;
    Turns turns = Turns.of(args.length > 7 ? Integer.parseInt(args[7]) : 0);

    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    byte[] payload = new byte[recordSize];
    new java.util.Random(42).nextBytes(payload);
    // Latencies in microseconds, one slot per record, written by the callback (the I/O thread).
    long[] latencies = new long[records];
    AtomicLong failed = new AtomicLong();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
      // Warm the connection and metadata outside the measured window, as ProducerPerformance does
      // implicitly with its first records.
      producer.send(new ProducerRecord<>(topic, payload)).get();
      Throttle throttle = new Throttle(throughput);
      Warmup warm = new Warmup(warmup, warmupMaxSeconds, turns.waits());
      long warmupStart = System.nanoTime();
      // The same sends as the measurement's, callback and all, into slots it overwrites later:
      // a path the warm-up never took would be compiled inside the measured window. That includes
      // the flush between the two: the first flush after a warm-up without one made the client's
      // compiled accumulator and sender code not entrant, and the uncapped window began with some
      // 1,200 compilations.
      for (long i = 0; warm.goesOn(i); i += STEP) {
        sendRange(
            producer, topic, payload, latencies, failed, throttle, warmupStart, 0, i, i + STEP);
        if ((i + STEP) % FLUSH_EVERY == 0) {
          producer.flush();
        }
        turns.rehearse();
      }
      producer.flush();
      failed.set(0); // the warm-up's failures are not the measurement's
      turns.ready();
      ThreadCpu threads = ThreadCpu.startIfAsked();
      double requestsBefore = requestTotal(producer);
      for (int turn = 0; turn < turns.count(); turn++) {
        long from = turns.firstOf(turn, records);
        long to = turns.firstOf(turn + 1, records);
        turns.await();
        long start = System.nanoTime();
        turns.start(start);
        for (long i = from; i < to; i += STEP) {
          sendRange(
              producer,
              topic,
              payload,
              latencies,
              failed,
              throttle,
              start,
              from,
              i,
              Math.min(i + STEP, to));
        }
        // Every record of the turn answered inside it: the next child's turn measures its own.
        producer.flush();
        turns.end();
      }
      if (threads != null) {
        threads.print();
        System.err.printf("produce-requests %.0f%n", requestTotal(producer) - requestsBefore);
      }
      // Printed so that the rehearsals' reads are used, and the JIT cannot drop them.
      System.err.println("rehearsed turns read " + turns.rehearsedNanos() + " ns");
      Arrays.sort(latencies);
      System.out.println(
          new PerfResult(
                  records,
                  turns.elapsedNanos(),
                  (long) records * recordSize,
                  Stats.percentileOfSorted(latencies, 50),
                  Stats.percentileOfSorted(latencies, 99),
                  Stats.percentileOfSorted(latencies, 99.9),
                  failed.get(),
                  turns.cpuNanos(),
                  warm.nanos(),
                  warm.quiet(),
                  turns.jitNanos())
              .toLine());
    }
  }

  private static double requestTotal(KafkaProducer<byte[], byte[]> producer) {
    return producer.metrics().entrySet().stream()
        .filter(
            e ->
                e.getKey().group().equals("producer-metrics")
                    && e.getKey().name().equals("request-total"))
        .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
        .sum();
  }

  /**
   * Sends records {@code from} to {@code to} (exclusive), paced from record {@code first} sent at
   * {@code startNanos}. The warm-up and the measurement share this method and call it {@value
   * #STEP} records at a time, so the measurement runs the code the warm-up compiled: a loop of
   * their own in {@code main} would be compiled on-stack (with the whole send inlined) again inside
   * the measured window.
   */
  private static void sendRange(
      KafkaProducer<byte[], byte[]> producer,
      String topic,
      byte[] payload,
      long[] latencies,
      AtomicLong failed,
      Throttle throttle,
      long startNanos,
      long first,
      long from,
      long to)
      throws InterruptedException {
    for (long i = from; i < to; i++) {
      send(producer, topic, payload, latencies, (int) (i % latencies.length), failed);
      throttle.pace(i - first + 1, startNanos);
    }
  }

  /** Sends one record; its callback writes the latency in µs to {@code latencies[slot]}. */
  private static void send(
      KafkaProducer<byte[], byte[]> producer,
      String topic,
      byte[] payload,
      long[] latencies,
      int slot,
      AtomicLong failed) {
    long sent = System.nanoTime();
    producer.send(
        new ProducerRecord<>(topic, payload),
        (metadata, error) -> {
          if (error != null) {
            failed.incrementAndGet();
          }
          latencies[slot] = (System.nanoTime() - sent) / 1000;
        });
  }

  /**
   * Keeps the sends at most {@code throughput} a second the way ProducerPerformance's {@code
   * ThroughputThrottler} does: it sleeps once it is at least 2 ms ahead and otherwise sends on, so
   * records go out in bursts of about 2 ms' worth. It never spins: a spinning sender takes a whole
   * core of the two, from the broker and the JIT, and its CPU would swamp the per-record figures.
   */
  static final class Throttle {
    private static final long MIN_SLEEP_NANOS = 2_000_000;
    private final long throughput;

    Throttle(long throughput) {
      this.throughput = throughput;
    }

    void pace(long sent, long startNanos) throws InterruptedException {
      if (throughput <= 0) {
        return;
      }
      long due = startNanos + sent * 1_000_000_000L / throughput;
      long ahead = due - System.nanoTime();
      if (ahead >= MIN_SLEEP_NANOS) {
        Thread.sleep(ahead / 1_000_000, (int) (ahead % 1_000_000));
      }
    }
  }
}
