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

/**
 * What an agent adds to a hello-world {@code main}: wall time from process start to exit (less the
 * 1.5 s pause and the collections the child reports, so one launch gives both figures), and heap in
 * use after GC once the agent has finished starting (1.5 s after {@code main}); to the start of a
 * service's libraries ({@link BenchLibraries}); and to a Spring Boot service's start ({@code
 * src/test/spring-boot-bench-app}, run from its executable jar). Variants run interleaved; each
 * figure is a median over the runs.
 */
final class StartupBenchmark {

  /**
   * One variant's medians: the hello-world's wall time and heap, the library start-up's ({@link
   * BenchLibraries}) time to the end of its work and process CPU once the agent had installed
   * itself and once the process had settled (the agent's export included), and the Spring Boot
   * service's uptime at {@code ApplicationReadyEvent} and process CPU once the agent had installed
   * itself.
   */
  record Result(
      String variant,
      double wallMillis,
      double heapBytes,
      double libraryMainMillis,
      double libraryCpuMillis,
      double librarySettledCpuMillis,
      double bootReadyMillis,
      double bootCpuMillis) {}

  private final BenchSettings settings;

  private static double valueOf(String stdout, String key) {
    for (String line : stdout.split("\n")) {
      if (line.startsWith(key + "=")) {
        return Double.parseDouble(line.substring(key.length() + 1).strip());
      }
    }
    throw new IllegalStateException("no " + key + " line in:\n" + stdout);
  }

  private static long pausedMillis(String stdout) {
    for (String line : stdout.split("\n")) {
      if (line.startsWith("paused-ms=")) {
        return Long.parseLong(line.substring(10).strip());
      }
    }
    throw new IllegalStateException("no paused-ms line in:\n" + stdout);
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
    Map<String, double[]> walls = new LinkedHashMap<>();
    Map<String, double[]> heaps = new LinkedHashMap<>();
    variants.keySet().forEach(v -> walls.put(v, new double[settings.startupRuns()]));
    variants.keySet().forEach(v -> heaps.put(v, new double[settings.startupRuns()]));
    Map<String, double[]> libraryMains = new LinkedHashMap<>();
    Map<String, double[]> libraryCpus = new LinkedHashMap<>();
    variants.keySet().forEach(v -> libraryMains.put(v, new double[settings.startupRuns()]));
    variants.keySet().forEach(v -> libraryCpus.put(v, new double[settings.startupRuns()]));
    Map<String, double[]> librarySettledCpus = new LinkedHashMap<>();
    variants.keySet().forEach(v -> librarySettledCpus.put(v, new double[settings.startupRuns()]));
    Map<String, double[]> bootReadies = new LinkedHashMap<>();
    Map<String, double[]> bootCpus = new LinkedHashMap<>();
    variants.keySet().forEach(v -> bootReadies.put(v, new double[settings.startupRuns()]));
    variants.keySet().forEach(v -> bootCpus.put(v, new double[settings.startupRuns()]));
    for (int i = 0; i < settings.startupRuns(); i++) {
      for (Map.Entry<String, List<String>> v : variants.entrySet()) {
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
        walls.get(v.getKey())[i] = (System.nanoTime() - start) / 1e6;
        heaps.get(v.getKey())[i] =
            HeapAfterGc.parse(
                BenchJvm.run(BenchJvm.command(options, BenchHello.class.getName(), "1500"), 120));
        String libraries =
            BenchJvm.run(
                BenchJvm.commandOn(
                    BenchJvm.libraryClassPath(), options, BenchLibraries.class.getName()),
                120);
        libraryMains.get(v.getKey())[i] = valueOf(libraries, "main-ms");
        libraryCpus.get(v.getKey())[i] = valueOf(libraries, "cpu-ms");
        librarySettledCpus.get(v.getKey())[i] = valueOf(libraries, "settled-cpu-ms");
        String boot = BenchJvm.run(BenchJvm.jarCommand(options, bootJar), 180);
        bootReadies.get(v.getKey())[i] = valueOf(boot, "ready-ms");
        bootCpus.get(v.getKey())[i] = valueOf(boot, "cpu-ms");
      }
    }
    List<Result> results = new ArrayList<>();
    for (String v : variants.keySet()) {
      Result r =
          new Result(
              v,
              Stats.median(walls.get(v)),
              Stats.median(heaps.get(v)),
              Stats.median(libraryMains.get(v)),
              Stats.median(libraryCpus.get(v)),
              Stats.median(librarySettledCpus.get(v)),
              Stats.median(bootReadies.get(v)),
              Stats.median(bootCpus.get(v)));
      System.out.println("bench: start-up " + r);
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
