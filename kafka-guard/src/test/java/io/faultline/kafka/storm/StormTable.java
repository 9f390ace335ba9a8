package io.faultline.kafka.storm;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints the reconnect-storm simulation's table: the 500-client lab's shape (to compare with the
 * lab's measured figures) and the LINE Kafka incident's scale (18,000 clients), the gate off and on
 * at several windows, each the median of several seeds. Run with {@code java -cp <kafka-guard test
 * class path> io.faultline.kafka.storm.StormTable} (./benchmarks does).
 */
public final class StormTable {

  private StormTable() {}

  /** The lab's listener: backlog 16, an acceptor on 2 loaded cores. */
  static StormSimulation.Scenario lab(boolean gate, double window, long seed) {
    return new StormSimulation.Scenario(
        "lab, 500 clients",
        500,
        16,
        LAB_ACCEPTS_PER_SECOND,
        LAB_LEARN_SECONDS,
        0.2,
        gate,
        window,
        seed);
  }

  /**
   * LINE's scale: 18,000 clients learning within a second, Kafka's default listen backlog (50), an
   * acceptor taking 5,000 connections a second (an assumption for a broker's acceptor thread on its
   * own core; the lab's 2 loaded cores did 700).
   */
  static StormSimulation.Scenario line(boolean gate, double window, int backlog, long seed) {
    return new StormSimulation.Scenario(
        "LINE scale, 18,000 clients, backlog " + backlog,
        18_000,
        backlog,
        5_000,
        1.0,
        0.5,
        gate,
        window,
        seed);
  }

  /** The lab's acceptor rate and the spread of its clients' learning, calibrated (see docs). */
  static final double LAB_ACCEPTS_PER_SECOND = 700;

  static final double LAB_LEARN_SECONDS = 0.5;

  /** See the class comment. */
  public static void main(String[] args) {
    int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    System.out.println(
        "| scenario | gate | peak handshakes / 100 ms | peak accepted / 100 ms | listen overflows"
            + " | SYN cookies | all back after |");
    System.out.println("|---|---|---:|---:|---:|---:|---:|");
    for (double window : new double[] {0, 3, 7.5}) {
      print(runs(seeds, seed -> lab(window > 0, window, seed)), window);
    }
    for (double window : new double[] {0, 3, 7.5}) {
      print(runs(seeds, seed -> line(window > 0, window, 50, seed)), window);
    }
    print(runs(seeds, seed -> line(false, 0, 4096, seed)), 0);
  }

  static List<StormSimulation.Result> runs(
      int seeds, java.util.function.LongFunction<StormSimulation.Scenario> scenario) {
    List<StormSimulation.Result> runs = new ArrayList<>();
    for (long seed = 1; seed <= seeds; seed++) {
      runs.add(new StormSimulation(scenario.apply(seed)).run());
    }
    return runs;
  }

  private static void print(List<StormSimulation.Result> runs, double window) {
    StormSimulation.Result first = runs.get(0);
    System.out.printf(
        Locale.ROOT,
        "| %s | %s | %s | %s | %s | %s | %s |%n",
        first.scenario().name(),
        window == 0 ? "off" : "on, " + window + " s",
        range(runs, r -> r.peakHandshakesPer100ms()),
        range(runs, r -> r.peakAcceptedPer100ms()),
        range(runs, r -> r.overflows()),
        range(runs, r -> r.synCookies()),
        rangeSeconds(runs));
  }

  private static String range(
      List<StormSimulation.Result> runs,
      java.util.function.ToLongFunction<StormSimulation.Result> f) {
    long[] v = runs.stream().mapToLong(f).sorted().toArray();
    return v[0] == v[v.length - 1]
        ? String.format(Locale.ROOT, "%,d", v[0])
        : String.format(Locale.ROOT, "%,d (%,d–%,d)", v[v.length / 2], v[0], v[v.length - 1]);
  }

  private static String rangeSeconds(List<StormSimulation.Result> runs) {
    double[] v =
        runs.stream().mapToDouble(StormSimulation.Result::secondsUntilAllBack).sorted().toArray();
    return String.format(Locale.ROOT, "%.1f s (%.1f–%.1f)", v[v.length / 2], v[0], v[v.length - 1]);
  }
}
