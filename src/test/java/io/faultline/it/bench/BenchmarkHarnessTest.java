package io.faultline.it.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import java.awt.image.BufferedImage;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fast smoke test of the benchmark harness that runs in the default build: the report keeps the
 * sections it does not own, charts are real PNGs, JMH's JSON is read, and one small producer run in
 * a child JVM against the real broker measures what it sent.
 */
@ExtendWith(RealServers.class)
class BenchmarkHarnessTest {

  @Test
  void theGeneratedPartIsReplacedAndEveryOtherSectionKept() {
    String first =
        ReportFile.splice(
            "# Benchmarks\n\n## Connect overhead\n\nhand-written\n", "## Gen\n\nv1\n");
    String appended = first + "\n## Reconnect storm\n\nsomeone else's\n";
    String second = ReportFile.splice(appended, "## Gen\n\nv2\n");

    assertThat(second)
        .startsWith("# Benchmarks\n\n" + ReportFile.BEGIN + "\n## Gen\n\nv2\n" + ReportFile.END)
        .contains("## Connect overhead\n\nhand-written\n")
        .endsWith("## Reconnect storm\n\nsomeone else's\n")
        .doesNotContain("v1");
  }

  @Test
  void chartsAreReadablePngs(@TempDir Path dir) throws Exception {
    Path png = dir.resolve("c.png");
    new BarChart(
            "t",
            "ratio",
            List.of("a", "b"),
            List.of("x", "y"),
            new double[][] {{1, 2}, {3, Double.NaN}})
        .goal(1.5, "goal")
        .write(png);

    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image.getWidth()).isEqualTo(900);
    assertThat(Files.size(png)).isGreaterThan(1000);
  }

  @Test
  void jmhScoresAreReadFromItsJson() {
    String json =
        "[{\"jmhVersion\" : \"1.37\", \"benchmark\" : \"io.faultline.core.bench.TcpInfoSampleBenchmark.sample\","
            + " \"mode\" : \"avgt\", \"primaryMetric\" : { \"score\" : 812.5, \"scoreError\" : 12.25,"
            + " \"scoreConfidence\" : [800.25, 824.75], \"scoreUnit\" : \"ns/op\" }}]";

    assertThat(JmhResults.parse(json))
        .containsEntry(
            "TcpInfoSampleBenchmark.sample", new JmhResults.Score(812.5, 12.25, "ns/op"));
  }

  @Test
  void theDeliverySampleGoalShowsTheSameCallFromCBesideIt(@TempDir Path docs) throws Exception {
    java.util.Map<String, JmhResults.Score> jmh =
        JmhResults.parse(
            "[{\"benchmark\" : \"io.faultline.core.bench.TcpInfoSampleBenchmark.unacknowledgedBytes\","
                + " \"primaryMetric\" : {\"score\" : 642.9, \"scoreError\" : 18.7, \"scoreUnit\" :"
                + " \"ns/op\"}}]\n"
                + syscallFloor());

    String report =
        new BenchmarkReport(measurementsWithJmh(jmh), docs)
            .render()
            .replaceAll("\\d+ ns\\)", "N ns)");

    assertThat(jmh).containsKeys("SyscallFloor.ioctlSiocoutq", "SyscallFloor.getsockoptTcpInfo");
    assertThat(report)
        .contains("| `SyscallFloor.ioctlSiocoutq` |")
        .contains(
            "| delivery sample per connection, JNI on JDK 17–21 (`unacknowledgedBytes`) | ≤ 500 ns"
                + " | 643 ns (the same call from C: N ns) | **MISSED** |");
  }

  /**
   * The output of {@code core/src/test/native/syscall_floor.c}, compiled and run here when the host
   * has a C compiler (as {@code ./benchmarks} does); otherwise the line it prints, as written.
   */
  private static String syscallFloor() throws Exception {
    Path source =
        Path.of(System.getProperty("faultline.it.docs.dir", "../../docs"))
            .resolveSibling("core/src/test/native/syscall_floor.c")
            .toAbsolutePath()
            .normalize();
    assertThat(source).isRegularFile();
    Path binary = Files.createTempFile("syscall-floor", "");
    try {
      Process cc =
          new ProcessBuilder("cc", "-O2", "-o", binary.toString(), source.toString())
              .redirectErrorStream(true)
              .start();
      cc.getInputStream().readAllBytes();
      if (cc.waitFor() == 0) {
        Process run = new ProcessBuilder(binary.toString()).start();
        String out = new String(run.getInputStream().readAllBytes());
        assertThat(run.waitFor()).isZero();
        return out;
      }
    } catch (java.io.IOException noCompiler) {
      // no cc on this host: the line below is what the program prints
    } finally {
      Files.deleteIfExists(binary);
    }
    return "[{\"benchmark\" : \"native.SyscallFloor.ioctlSiocoutq\", \"primaryMetric\" : {\"score\" :"
        + " 361.6, \"scoreError\" : 8.9, \"scoreUnit\" : \"ns/op\"}},\n"
        + " {\"benchmark\" : \"native.SyscallFloor.getsockoptTcpInfo\", \"primaryMetric\" : {\"score\""
        + " : 741.4, \"scoreError\" : 59.9, \"scoreUnit\" : \"ns/op\"}}]";
  }

  @Test
  void theStartUpSectionHasTheSpringBootRowsAndTheirGoals(@TempDir Path docs) throws Exception {
    StartupBenchmark.Figures none =
        new StartupBenchmark.Figures(400, 2e6, 900, 1500, 1510, 5000, 9000);
    List<StartupBenchmark.Result> startup =
        List.of(
            new StartupBenchmark.Result("no agent", none, List.of(zeroes())),
            new StartupBenchmark.Result(
                "Faultline, endpoint on",
                new StartupBenchmark.Figures(600, 4e6, 1100, 1900, 2110, 5250, 9700),
                List.of(new StartupBenchmark.Figures(200, 2e6, 200, 400, 600, 250, 700))));

    String report = new BenchmarkReport(measurements(startup), docs).render();

    assertThat(report)
        .contains("| Faultline, endpoint on | 1100 | +200 | 1900 | +400 | 2110 | +600 |")
        .contains("| Faultline, endpoint on | 5250 | +250 | 9700 | +700 |")
        .contains(
            "| Spring Boot start-up added wall (Kafka, jOOQ, HikariCP service) | ≤ 300 ms | +250 ms | met |")
        .contains("| Spring Boot start-up added CPU | ≤ 500 ms | +700 ms | **MISSED** |");
    assertThat(docs.resolve("benchmarks/startup.png")).isRegularFile();
  }

  @Test
  void anAddedStartUpFigureBelowZeroIsNoReadingNotMet(@TempDir Path docs) throws Exception {
    List<StartupBenchmark.Result> startup =
        List.of(
            new StartupBenchmark.Result(
                "no agent",
                new StartupBenchmark.Figures(400, 2e6, 900, 1500, 1510, 7500, 14500),
                List.of(zeroes())),
            new StartupBenchmark.Result(
                "Faultline, endpoint on",
                new StartupBenchmark.Figures(600, 4e6, 1100, 1900, 2110, 7350, 14200),
                List.of(new StartupBenchmark.Figures(200, 2e6, 200, 400, 600, -150, -300))));

    String report = new BenchmarkReport(measurements(startup), docs).render();

    assertThat(report)
        .contains(
            "| Spring Boot start-up added wall (Kafka, jOOQ, HikariCP service) | ≤ 300 ms | -150 ms | no reading |")
        .contains("| Spring Boot start-up added CPU | ≤ 500 ms | -300 ms | no reading |")
        .contains("| library start-up added CPU | ≤ 500 ms | +400 ms | met |");
  }

  @Test
  void aGoalHeldAgainstTheMedianOfRoundsShowsHowFarItsRoundsSpread(@TempDir Path docs)
      throws Exception {
    List<StartupBenchmark.Figures> base = List.of(bootCpu(9000), bootCpu(9400), bootCpu(8800));
    List<StartupBenchmark.Figures> agent = List.of(bootCpu(9600), bootCpu(9450), bootCpu(9720));
    List<StartupBenchmark.Result> startup =
        List.of(
            new StartupBenchmark.Result(
                "Faultline, endpoint on",
                StartupBenchmark.Figures.medians(agent),
                StartupBenchmark.Figures.differences(agent, base)));

    String report = new BenchmarkReport(measurements(startup), docs).render();

    // Differences +600, +50, +920: the median misses the goal, one round met it.
    assertThat(report)
        .contains(
            "| Spring Boot start-up added CPU | ≤ 500 ms | +600 ms (rounds +50 to +920) |"
                + " **MISSED** |")
        .contains("the lowest and the highest round follow it");
  }

  @Test
  void aSingleRoundHasNoSpreadToShow() {
    assertThat(Stats.roundsRange(new double[] {0.98}, "%.3f")).isEmpty();
    assertThat(Stats.roundsRange(new double[] {1.02, 0.951, 0.99}, "%.3f"))
        .isEqualTo("rounds 0.951 to 1.020");
    assertThat(Stats.withNotes("0.990", "rounds 0.951 to 1.020", "", "÷ no agent 1.010"))
        .isEqualTo("0.990 (rounds 0.951 to 1.020; ÷ no agent 1.010)");
    assertThat(Stats.withNotes("0.990", "")).isEqualTo("0.990");
  }

  @Test
  void anAddedStartUpFigureIsTheMedianOfTheDifferencesRoundByRound() {
    List<StartupBenchmark.Figures> base =
        List.of(libraryCpu(900), libraryCpu(1500), libraryCpu(1000));
    // Round two ran on a slow stretch of the host for both variants.
    List<StartupBenchmark.Figures> agent =
        List.of(libraryCpu(1000), libraryCpu(1400), libraryCpu(1200));

    StartupBenchmark.Figures added =
        new StartupBenchmark.Result(
                "agent",
                StartupBenchmark.Figures.medians(agent),
                StartupBenchmark.Figures.differences(agent, base))
            .added();

    // Differences +100, -100, +200: their median, where the medians' difference would be +200.
    assertThat(added.libraryCpuMillis()).isEqualTo(100);
    assertThat(StartupBenchmark.Figures.medians(agent).libraryCpuMillis()).isEqualTo(1200);
    assertThatThrownBy(() -> StartupBenchmark.Figures.differences(agent, base.subList(0, 2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pair them by round");
  }

  private static StartupBenchmark.Figures bootCpu(double millis) {
    return new StartupBenchmark.Figures(0, 0, 0, 0, 0, 0, millis);
  }

  private static StartupBenchmark.Figures libraryCpu(double millis) {
    return new StartupBenchmark.Figures(0, 0, 0, millis, 0, 0, 0);
  }

  private static StartupBenchmark.Figures zeroes() {
    return new StartupBenchmark.Figures(0, 0, 0, 0, 0, 0, 0);
  }

  private static BenchmarkReport.Measurements measurements(List<StartupBenchmark.Result> startup) {
    return measurements(startup, java.util.Map.of());
  }

  private static BenchmarkReport.Measurements measurementsWithJmh(
      java.util.Map<String, JmhResults.Score> jmh) {
    return measurements(List.of(), jmh);
  }

  private static BenchmarkReport.Measurements measurements(
      List<StartupBenchmark.Result> startup, java.util.Map<String, JmhResults.Score> jmh) {
    return measurements(startup, jmh, new ConnectionMemoryBenchmark.Rounds(List.of()));
  }

  private static BenchmarkReport.Measurements measurements(
      List<StartupBenchmark.Result> startup,
      java.util.Map<String, JmhResults.Score> jmh,
      ConnectionMemoryBenchmark.Rounds memory) {
    return new BenchmarkReport.Measurements(
        BenchSettings.of("quick"),
        "./benchmarks quick",
        "machine\n",
        List.of(),
        null,
        jmh,
        java.util.Map.of(),
        false,
        startup,
        1 << 20,
        1 << 20,
        memory,
        1);
  }

  @Test
  void eachStartUpRoundBeginsOneVariantFurtherOnSoNoVariantAlwaysFollowsTheSameOne() {
    List<String> variants = List.of("none", "empty", "faultline", "otel");

    assertThat(StartupBenchmark.roundOrder(variants, 0)).isEqualTo(variants);
    assertThat(StartupBenchmark.roundOrder(variants, 1))
        .containsExactly("empty", "faultline", "otel", "none");
    assertThat(StartupBenchmark.roundOrder(variants, 3))
        .containsExactly("otel", "none", "empty", "faultline");
    assertThat(StartupBenchmark.roundOrder(variants, 4)).isEqualTo(variants);
  }

  @Test
  void aSmallProducerRunReportsWhatItSent(KafkaCluster kafka) {
    String topic = "bench-smoke-" + System.nanoTime();
    kafka.createTopic(topic, 1);

    PerfResult result =
        PerfResult.parse(
            child(ProducerPerf.class, kafka.bootstrapServers(), topic, "2000", "100", "-1"));

    assertThat(result.records()).isEqualTo(2000);
    assertThat(result.failed()).isZero();
    assertThat(result.bytes()).isEqualTo(200_000);
    assertThat(result.p99()).isGreaterThanOrEqualTo(result.p50()).isPositive();
    assertThat(result.recordsPerSecond()).isPositive();
  }

  @Test
  void theConsumerWarmsUpByReReadingTheTopicAndThenReadsItOnceFromTheStart(KafkaCluster kafka) {
    String topic = "bench-consume-smoke-" + System.nanoTime();
    fill(kafka, topic, 1000); // 1,001 records: ProducerPerf sends one before its measurement

    // Three times the topic's records as warm-up (the limit of 0 s waits for records alone): a
    // reader that does not go back to the start never gets there, and the child's 120 s run out
    // before its 3 min warm-up deadline.
    PerfResult result =
        PerfResult.parse(
            child(ConsumerPerf.class, kafka.bootstrapServers(), topic, "900", "3000", "0"));

    assertThat(result.records()).isBetween(900L, 1001L);
    assertThat(result.failed()).isZero();
    assertThat(result.bytes()).isEqualTo(result.records() * 100);
    assertThat(result.warmupSeconds()).isPositive();
  }

  @Test
  void theConsumerReadsTheTopicAsManyTimesOverAsItsPasses(KafkaCluster kafka) {
    String topic = "bench-consume-passes-" + System.nanoTime();
    fill(kafka, topic, 1000);

    // Three passes of 900 records from a topic of 1,001: the measurement must go back to the
    // start at the end, or it waits out the child's 120 s.
    PerfResult result =
        PerfResult.parse(
            child(ConsumerPerf.class, kafka.bootstrapServers(), topic, "900", "900", "0", "3"));

    assertThat(result.records()).isBetween(2700L, 3003L);
    assertThat(result.failed()).isZero();
    assertThat(result.bytes()).isEqualTo(result.records() * 100);
  }

  @Test
  void theConsumerRefusesATopicShorterThanItsMeasurement(KafkaCluster kafka) {
    String topic = "bench-consume-short-" + System.nanoTime();
    fill(kafka, topic, 100);

    assertThatThrownBy(
            () -> child(ConsumerPerf.class, kafka.bootstrapServers(), topic, "500", "10", "0"))
        .hasMessageContaining("holds 101 records; the measurement reads 500");
  }

  @Test
  void childrenTakingTurnsMeasureOneAtATimeInTheSameOrderEachTime() {
    List<String> outputs =
        TakingTurns.run(
            List.of(turnTaker("a"), turnTaker("b"), turnTaker("c")), TurnTaker.TURNS, 60);

    List<long[]> spans = new ArrayList<>();
    List<String> owners = new ArrayList<>();
    for (String out : outputs) {
      for (String line : out.split("\n")) {
        if (line.startsWith("span ")) {
          String[] f = line.split(" ");
          owners.add(f[1]);
          spans.add(new long[] {Long.parseLong(f[2]), Long.parseLong(f[3])});
        }
      }
    }
    List<Integer> byStart = new ArrayList<>();
    for (int i = 0; i < spans.size(); i++) {
      byStart.add(i);
    }
    byStart.sort(java.util.Comparator.comparingLong(i -> spans.get(i)[0]));
    StringBuilder order = new StringBuilder();
    for (int k = 0; k < byStart.size(); k++) {
      order.append(owners.get(byStart.get(k)));
      if (k > 0) {
        assertThat(spans.get(byStart.get(k))[0])
            .as("a turn begins after the one before it ended")
            .isGreaterThanOrEqualTo(spans.get(byStart.get(k - 1))[1]);
      }
    }
    assertThat(order).hasToString("abcabcabcabc");
    // Each child's figures are its own turns': four of about 20 ms, not the 12 turns' span.
    for (String out : outputs) {
      PerfResult r = PerfResult.parse(out);
      assertThat(r.records()).isEqualTo(TurnTaker.TURNS);
      assertThat(r.elapsedNanos()).isBetween(80_000_000L, 400_000_000L);
    }
  }

  @Test
  void aChildThatFailsInItsTurnStopsTheOthersAndSaysWhy() {
    assertThatThrownBy(
            () -> TakingTurns.run(List.of(turnTaker("a"), turnTaker("fail")), TurnTaker.TURNS, 60))
        .hasMessageContaining("it ended before saying '" + Turns.DONE + "'")
        .hasMessageContaining("failing in turn 1 as asked");
  }

  @Test
  void producersTakingTurnsEachReportTheirWholeMeasurement(KafkaCluster kafka) {
    String topic = "bench-turns-" + System.nanoTime();
    kafka.createTopic(topic, 1);
    List<String> producer =
        BenchJvm.command(
            List.of("-Xmx256m", "-XX:TieredStopAtLevel=1"),
            ProducerPerf.class.getName(),
            kafka.bootstrapServers(),
            topic,
            "3000",
            "100",
            "-1",
            "1000",
            "0",
            "3");

    List<String> outputs = TakingTurns.run(List.of(producer, producer), 3, 120);

    for (String out : outputs) {
      PerfResult result = PerfResult.parse(out);
      assertThat(result.records()).isEqualTo(3000);
      assertThat(result.failed()).isZero();
      assertThat(result.p99()).isGreaterThanOrEqualTo(result.p50()).isPositive();
      // Per thread, from one read: a thread that ends in a turn no longer takes its earlier time
      // out (a C1 compiler thread's did, -49 ms), nor can the JIT's share exceed the whole.
      assertThat(result.cpuNanos()).isGreaterThanOrEqualTo(result.jitCpuNanos());
      assertThat(result.cpuNanosPerRecord()).isPositive();
    }
  }

  @Test
  void theMemoryPartScrapesTheAgentOnlyWhereItsEndpointIsOpen() {
    assertThat(
            ConnectionMemoryBenchmark.endpointPort(
                List.of("-Xmx2g", "-javaagent:/a.jar=kafka.recycle=on,prometheus.port=9404")))
        .contains(9404);
    assertThat(
            ConnectionMemoryBenchmark.endpointPort(List.of("-javaagent:/a.jar=prometheus.port=0")))
        .isEmpty();
    assertThat(ConnectionMemoryBenchmark.endpointPort(List.of("-Dprometheus.port=9404"))).isEmpty();
    assertThat(ConnectionMemoryBenchmark.endpointPort(List.of())).isEmpty();
  }

  @Test
  void theHeapAfterGcIsWhatTheCollectionLeftNotWhatWasAllocatedAfterIt()
      throws InterruptedException {
    long without = HeapAfterGc.bytes();
    byte[] kept = new byte[128 << 20];
    long with = HeapAfterGc.bytes();
    byte[][] allocatedSince = new byte[1][];
    long read = HeapAfterGc.bytes(() -> allocatedSince[0] = new byte[128 << 20]);
    long inUse = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    Reference.reachabilityFence(kept);
    Reference.reachabilityFence(allocatedSince);

    // Other threads of this JVM keep a little more or less from one collection to the next.
    assertThat(with - without).isBetween(120L << 20, 136L << 20);
    assertThat(read - with).isBetween(-8L << 20, 8L << 20);
    assertThat(inUse - read).isGreaterThanOrEqualTo(120L << 20);
  }

  @Test
  void theMemoryPartReadsFaultlinesInstancesAndEveryLiveObjectFromTheClassHistogram() {
    String jcmd =
        String.join(
            "\n",
            "12345:",
            " num     #instances         #bytes  class name (module)",
            "-------------------------------------------------------",
            "   1:        104021        9843560  [B (java.base@17.0.15)",
            "   2:         16808         672320  io.faultline.shaded.kafka.phase.PhaseHistogram",
            "   3:          1000         104000  io.faultline.agent.kafka.KafkaClient",
            "   4:          3391         229072  [Lio.faultline.shaded.kafka.phase.PhaseHistogram;",
            "Total       4230674      161295056");
    assertThat(ConnectionMemoryBenchmark.histogramFigures(jcmd))
        .containsExactly(17808, 776320, 161295056);
    assertThatThrownBy(() -> ConnectionMemoryBenchmark.histogramFigures("12345:\nno such pid"))
        .hasMessageContaining("no Total line");
  }

  @Test
  void theAgentsHeapIsTheMedianOfTheRoundsDifferences() {
    var rounds =
        new ConnectionMemoryBenchmark.Rounds(
            List.of(
                List.of(memory("no agent", 100, 99), memory("agent", 112, 111)),
                List.of(memory("no agent", 107, 99), memory("agent", 126, 112)),
                List.of(memory("no agent", 101, 100), memory("agent", 114, 112))));
    assertThat(rounds.addedBytes()).containsExactly(12L, 19L, 13L);
    assertThat(rounds.medianAddedBytes()).isEqualTo(13.0);
    assertThat(rounds.addedLiveBytes()).containsExactly(12L, 13L, 12L);
    assertThat(rounds.medianAddedLiveBytes()).isEqualTo(12.0);
  }

  @Test
  void theMemoryGoalIsReadFromTheMedianRoundWithEveryRoundShown(@TempDir Path docs)
      throws Exception {
    long mib = 1 << 20;
    var rounds =
        new ConnectionMemoryBenchmark.Rounds(
            List.of(
                List.of(
                    memory("no agent", 140 * mib, 139 * mib),
                    memory("agent", 152 * mib, 151 * mib)),
                List.of(
                    memory("no agent", 147 * mib, 139 * mib),
                    memory("agent", 168 * mib, 152 * mib)),
                List.of(
                    memory("no agent", 141 * mib, 140 * mib),
                    memory("agent", 154 * mib, 152 * mib))));

    String report =
        new BenchmarkReport(measurements(List.of(), java.util.Map.of(), rounds), docs).render();

    assertThat(report)
        .contains("| 2 | agent | 168.0 | 152.0 | 0 | 0.00 |")
        .contains("median of the rounds): 13.0 MiB; rounds 12.0, 21.0, 13.0 MiB; live objects 12.0")
        .contains(
            "| agent heap with 100 producers connected | ≤ 16 MiB | 13.0 MiB (rounds 12.0 to 21.0)"
                + " | met |");
  }

  private static ConnectionMemoryBenchmark.Result memory(String variant, long heap, long live) {
    return new ConnectionMemoryBenchmark.Result(variant, heap, live, 0, 0);
  }

  private static void fill(KafkaCluster kafka, String topic, int records) {
    kafka.createTopic(topic, 1);
    child(
        ProducerPerf.class,
        kafka.bootstrapServers(),
        topic,
        Integer.toString(records),
        "100",
        "-1");
  }

  private static List<String> turnTaker(String name) {
    return BenchJvm.command(List.of("-Xmx64m"), TurnTaker.class.getName(), name);
  }

  /**
   * A child that takes {@value #TURNS} turns of 20 ms each and prints each turn's span ({@code
   * System.nanoTime}, the same clock in every process here) and a result of one record a turn; the
   * one named {@code fail} exits in its second turn.
   */
  public static final class TurnTaker {
    static final int TURNS = 4;

    public static void main(String[] args) throws InterruptedException {
      Turns turns = Turns.of(TURNS);
      turns.ready();
      for (int turn = 0; turn < TURNS; turn++) {
        turns.await();
        long start = System.nanoTime();
        turns.start(start);
        if (args[0].equals("fail") && turn == 1) {
          System.err.println("failing in turn 1 as asked");
          System.exit(3);
        }
        Thread.sleep(20);
        System.out.println("span " + args[0] + " " + start + " " + System.nanoTime());
        turns.end();
      }
      System.out.println(
          new PerfResult(TURNS, turns.elapsedNanos(), 0, 0, 0, 0, 0, 0, 0, true, 0).toLine());
    }
  }

  /** Runs a benchmark child, C1 only: these check what it reports, not how fast it is. */
  private static String child(Class<?> main, String... args) {
    return BenchJvm.run(
        BenchJvm.command(List.of("-Xmx256m", "-XX:TieredStopAtLevel=1"), main.getName(), args),
        120);
  }
}
