package io.faultline.it.agent;

import io.faultline.it.bench.PerfResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.slf4j.LoggerFactory;

/**
 * What the agent costs a Kafka broker: a broker of one (KRaft, C2 as in production) started with
 * and without the agent, alternately, and loaded each time by the same uncapped producer without
 * the agent (the {@code ProducerPerformance} workload: 512-byte records, acks=all). Per run: the
 * seconds until the broker logs that it started, the producer's records/s and p99, and the broker
 * process's CPU per record. Prints a table and the medians' ratios; not part of the default build
 * ({@code -Dfaultline.bench.broker=full|quick}, which {@code ./benchmarks} sets). The goal:
 * start-up at most 1 s longer, throughput at least 0.98 of the broker's without the agent.
 */
@EnabledIfSystemProperty(named = "faultline.bench.broker", matches = "full|quick")
class BrokerWithAgentBenchmark {

  private static final int RECORD_SIZE = 512;

  /** One broker run. */
  private record Run(
      boolean agent, double startSeconds, double recordsPerSecond, long p99, double cpuPerRecord) {}

  @Test
  @Timeout(value = 40, unit = TimeUnit.MINUTES)
  void startUpAndProduceThroughputWithAndWithoutTheAgent() throws Exception {
    boolean quick = "quick".equals(System.getProperty("faultline.bench.broker"));
    int rounds = quick ? 1 : 3;
    int records = quick ? 100_000 : 400_000;
    int warmup = quick ? 50_000 : 200_000;
    List<Run> runs = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      // Alternate which goes first: the second of a pair runs on a warmer page cache.
      boolean agentFirst = round % 2 == 1;
      runs.add(run(agentFirst, records, warmup));
      runs.add(run(!agentFirst, records, warmup));
    }
    String table = table(runs, records, warmup);
    System.out.print(table);
    String out = System.getProperty("faultline.bench.broker.out");
    if (out != null) {
      Files.createDirectories(Path.of(out).getParent());
      Files.writeString(Path.of(out), table);
    }
  }

  private static Run run(boolean agent, int records, int warmup) throws Exception {
    String name = (agent ? "with" : "without") + "-" + System.nanoTime();
    try (KafkaBrokerChild broker =
        KafkaBrokerChild.startForThroughput(
            "bench-" + name, agent ? "prometheus.port=" + Http.freePort() : null)) {
      double started = broker.awaitStarted(Duration.ofSeconds(120));
      String topic = "broker-bench-" + Uuid.randomUuid().toString().substring(0, 8);
      broker.createTopic(topic, (short) 1);
      long cpuBefore = cpuNanos(broker.child.pid());
      ChildJvm.Result perf =
          ChildJvm.on(Jdk.current())
              .withoutAgent()
              .fullCompiler()
              .option("-Xms512m")
              .option("-Xmx512m")
              .classPath(ChildJvm.jarOf(KafkaProducer.class))
              .classPath(ChildJvm.jarOf(LoggerFactory.class))
              .run(
                  900,
                  "io.faultline.it.bench.ProducerPerf",
                  broker.bootstrap,
                  topic,
                  Integer.toString(records),
                  Integer.toString(RECORD_SIZE),
                  "-1",
                  Integer.toString(warmup),
                  "0");
      perf.assertCleanExit();
      long brokerCpu = cpuNanos(broker.child.pid()) - cpuBefore;
      PerfResult result = PerfResult.parse(perf.stdout());
      // Every record the producer sent reached the broker: the warm-up's, the first one and the
      // measured ones.
      double perRecord = brokerCpu / (double) (warmup + 1 + records);
      return new Run(agent, started, result.recordsPerSecond(), result.p99(), perRecord);
    }
  }

  /** User and system CPU of process {@code pid} so far, from {@code /proc/<pid>/stat}. */
  private static long cpuNanos(long pid) throws Exception {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    // Fields after the command name (which may hold spaces) start at its closing parenthesis.
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
    return ticks * 10_000_000L; // USER_HZ is 100 on Linux
  }

  private static String table(List<Run> runs, int records, int warmup) {
    StringBuilder t = new StringBuilder();
    t.append(
        String.format(
            Locale.ROOT,
            "%nBroker with and without the agent: %d records of %d B after %d warm-up records,"
                + " acks=all, uncapped, producer without the agent%n%n",
            records,
            RECORD_SIZE,
            warmup));
    t.append(
        "| run | agent on the broker | broker start s | records/s | p99 ms | broker CPU µs/record |\n");
    t.append("|---|---|---|---|---|---|\n");
    int i = 1;
    for (Run r : runs) {
      t.append(
          String.format(
              Locale.ROOT,
              "| %d | %s | %.2f | %.0f | %.1f | %.2f |%n",
              i++,
              r.agent() ? "yes" : "no",
              r.startSeconds(),
              r.recordsPerSecond(),
              r.p99() / 1000.0,
              r.cpuPerRecord() / 1000.0));
    }
    // Each round's pair is compared with itself: rounds differ more than the agents do (page cache,
    // the machine's other work), and the order within a pair alternates.
    int rounds = runs.size() / 2;
    double[] startDelta = new double[rounds];
    double[] throughput = new double[rounds];
    double[] cpu = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      Run a = runs.get(2 * r);
      Run b = runs.get(2 * r + 1);
      Run with = a.agent() ? a : b;
      Run without = a.agent() ? b : a;
      startDelta[r] = with.startSeconds() - without.startSeconds();
      throughput[r] = with.recordsPerSecond() / without.recordsPerSecond();
      cpu[r] = with.cpuPerRecord() / without.cpuPerRecord();
    }
    double start = median(startDelta);
    double tput = median(throughput);
    t.append(
        String.format(
            Locale.ROOT,
            "%nMedians over %d rounds of each round's pair: start-up %+.2f s with the agent (goal"
                + " ≤ +1 s: %s); throughput %.3f × (goal ≥ 0.98 ×: %s); broker CPU per record"
                + " %.3f ×%n",
            rounds,
            start,
            start <= 1.0 ? "met" : "MISSED",
            tput,
            tput >= 0.98 ? "met" : "MISSED",
            median(cpu)));
    return t.toString();
  }

  private static double median(double[] values) {
    double[] v = values.clone();
    java.util.Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
