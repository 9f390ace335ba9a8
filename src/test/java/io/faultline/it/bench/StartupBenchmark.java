package io.faultline.it.bench;

import io.faultline.it.bench.BenchJvm.Variant;
import io.faultline.it.servers.TestPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * What an agent adds to a hello-world {@code main}: wall time from process start to exit, and (a
 * second launch that pauses) heap in use after GC once the agent has finished starting (1.5 s after
 * {@code main}); to the start of a service's libraries ({@link BenchLibraries}); and to a Spring
 * Boot service's start ({@code src/test/spring-boot-bench-app}, run from its executable jar).
 * Variants run interleaved, each round in another order ({@link #roundOrder}); each figure is a
 * median over the runs, and each added figure the median of the differences to no agent round by
 * round.
 */
final class StartupBenchmark {

  /**
   * One run's or one variant's figures: the hello-world's wall time and heap, the library
   * start-up's ({@link BenchLibraries}) time to the end of its work and process CPU once the agent
   * had installed itself and once the process had settled (the agent's export included), and the
   * Spring Boot service's uptime at {@code ApplicationReadyEvent} and process CPU once the agent
   * had installed itself.
   */
  record Figures(
      double wallMillis,
      double heapBytes,
      double libraryMainMillis,
      double libraryCpuMillis,
      double librarySettledCpuMillis,
      double bootReadyMillis,
      double bootCpuMillis) {

    private double[] values() {
      return new double[] {
        wallMillis,
        heapBytes,
        libraryMainMillis,
        libraryCpuMillis,
        librarySettledCpuMillis,
        bootReadyMillis,
        bootCpuMillis
      };
    }

    private static Figures of(double[] v) {
      return new Figures(v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
    }

    /** Each figure's median over {@code runs}. */
    static Figures medians(List<Figures> runs) {
      double[] medians = new double[7];
      for (int k = 0; k < medians.length; k++) {
        double[] column = new double[runs.size()];
        for (int i = 0; i < column.length; i++) {
          column[i] = runs.get(i).values()[k];
        }
        medians[k] = Stats.median(column);
      }
      return of(medians);
    }

    /** Each round's figures less {@code base}'s in the same round, in round order. */
    static List<Figures> differences(List<Figures> runs, List<Figures> base) {
      if (runs.size() != base.size()) {
        throw new IllegalArgumentException(
            runs.size() + " runs against " + base.size() + " of the base: pair them by round");
      }
      List<Figures> differences = new ArrayList<>();
      for (int i = 0; i < runs.size(); i++) {
        double[] run = runs.get(i).values();
        double[] other = base.get(i).values();
        double[] difference = new double[run.length];
        for (int k = 0; k < run.length; k++) {
          difference[k] = run[k] - other[k];
        }
        differences.add(of(difference));
      }
      return differences;
    }

    /** {@code figure} of each of {@code runs}, in order. */
    static double[] each(List<Figures> runs, ToDoubleFunction<Figures> figure) {
      return runs.stream().mapToDouble(figure).toArray();
    }
  }

  /**
   * One variant: the medians of its runs, and its differences to no agent round by round ({@link
   * Figures#differences}, in round order), which show how far the rounds spread.
   */
  record Result(String variant, Figures median, List<Figures> addedRounds) {

    /**
     * What the variant added to no agent: each figure's median over the rounds' differences. The
     * variants run interleaved, so a slower stretch of the host counts against both sides of a
     * difference, where a difference of two medians takes it whole.
     */
    Figures added() {
      return Figures.medians(addedRounds);
    }
  }

  private final BenchSettings settings;

  /**
   * The variants in round {@code round}'s order: each round starts one variant further on. In a
   * fixed order no agent always ran right after the heaviest variant (Faultline with OpenTelemetry,
   * half a minute of both cores), and whatever that leaves behind (caches, the host's scheduling)
   * fell on the same side of every difference.
   */
  static <T> List<T> roundOrder(List<T> variants, int round) {
    int from = round % variants.size();
    List<T> order = new ArrayList<>(variants.subList(from, variants.size()));
    order.addAll(variants.subList(0, from));
    return order;
  }

  private static double valueOf(String stdout, String key) {
    for (String line : stdout.split("\n")) {
      if (line.startsWith(key + "=")) {
        return Double.parseDouble(line.substring(key.length() + 1).strip());
      }
    }
    throw new IllegalStateException("no " + key + " line in:\n" + stdout);
  }

  StartupBenchmark(BenchSettings settings) {
    this.settings = settings;
  }

  List<Result> run() {
    Path bootJar = bootJar();
    Map<String, List<String>> variants = new LinkedHashMap<>();
    variants.put("no agent", List.of());
    variants.put(
        "an empty agent (`premain` returns)",
        List.of("-javaagent:" + NoOpAgent.writeJar(TestPaths.workDir("no-op-agent"))));
    variants.put(
        "Faultline, endpoint off",
        List.of("-javaagent:" + BenchJvm.faultlineAgent() + "=prometheus.port=0"));
    variants.put("Faultline, endpoint on", List.of());
    variants.put("OpenTelemetry agent", BenchJvm.agentOptions(Variant.OTEL));
    variants.put("Faultline + OpenTelemetry", BenchJvm.agentOptions(Variant.BOTH));
    Map<String, List<Figures>> runs = new LinkedHashMap<>();
    variants.keySet().forEach(v -> runs.put(v, new ArrayList<>()));
    List<Map.Entry<String, List<String>>> order = new ArrayList<>(variants.entrySet());
    for (int i = 0; i < settings.startupRuns(); i++) {
      for (Map.Entry<String, List<String>> v : roundOrder(order, i)) {
        List<String> options = new ArrayList<>(List.of("-Xshare:auto"));
        options.addAll(
            v.getKey().equals("Faultline, endpoint on")
                ? List.of(
                    "-javaagent:"
                        + BenchJvm.faultlineAgent()
                        + "=prometheus.port="
                        + BenchJvm.freePort())
                : v.getValue());
        long start = System.nanoTime();
        BenchJvm.run(BenchJvm.command(options, BenchHello.class.getName()), 120);
        double wall = (System.nanoTime() - start) / 1e6;
        List<String> heapOptions = new ArrayList<>(options);
        heapOptions.add(HeapAfterGc.EXACT_FULL_GC);
        double heap =
            HeapAfterGc.parse(
                BenchJvm.run(
                    BenchJvm.command(heapOptions, BenchHello.class.getName(), "1500"), 120));
        String libraries =
            BenchJvm.run(
                BenchJvm.commandOn(
                    BenchJvm.libraryClassPath(), options, BenchLibraries.class.getName()),
                120);
        String boot = BenchJvm.run(BenchJvm.jarCommand(options, bootJar), 180);
        runs.get(v.getKey())
            .add(
                new Figures(
                    wall,
                    heap,
                    valueOf(libraries, "main-ms"),
                    valueOf(libraries, "cpu-ms"),
                    valueOf(libraries, "settled-cpu-ms"),
                    valueOf(boot, "ready-ms"),
                    valueOf(boot, "cpu-ms")));
      }
    }
    List<Result> results = new ArrayList<>();
    List<Figures> base = runs.get("no agent");
    for (String v : variants.keySet()) {
      Result r =
          new Result(v, Figures.medians(runs.get(v)), Figures.differences(runs.get(v), base));
      System.out.println("bench: start-up " + r + " added=" + r.added());
      results.add(r);
    }
    return results;
  }

  private static Path bootJar() {
    try {
      return TestPaths.springBootBenchAppJar();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
