package io.faultline.agent.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What the agent adds to a JVM's start: wall time of a hello-world {@code main} (JVM start to exit)
 * and heap in use after the agent finished starting, without the agent and with it in two
 * configurations. A benchmark, not a test: it prints a table and asserts nothing.
 *
 * <p>Run from the repository root after {@code ./mvnw -pl agent -am package -DskipTests}:
 *
 * <pre>
 * java -cp agent/target/test-classes io.faultline.agent.bench.StartupCostBenchmark \
 *     agent/target/faultline-agent-0.1.0-SNAPSHOT.jar [runs, default 10] [java binary]
 * </pre>
 */
public final class StartupCostBenchmark {

  private StartupCostBenchmark() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: StartupCostBenchmark <agent jar> [runs] [java]");
      System.exit(64);
    }
    Path agent = Path.of(args[0]).toAbsolutePath();
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    String java =
        args.length > 2
            ? args[2]
            : Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classPath =
        Path.of(HelloHeap.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .toString();
    List<String[]> variants = new ArrayList<>();
    variants.add(new String[] {"no agent", null});
    variants.add(new String[] {"agent, endpoint off", "prometheus.port=0"});
    variants.add(new String[] {"agent, endpoint on", "prometheus.port=" + freePort()});
    System.out.printf(Locale.ROOT, "%s, %d runs each (median)%n", java, runs);
    System.out.printf(Locale.ROOT, "%-22s %12s %14s%n", "variant", "wall ms", "heap used MiB");
    long baseWall = 0;
    long baseHeap = 0;
    for (String[] variant : variants) {
      long[] walls = new long[runs];
      long[] heaps = new long[runs];
      for (int i = 0; i < runs; i++) {
        walls[i] = wallMillis(java, classPath, agent, variant[1]);
        heaps[i] = heapBytes(java, classPath, agent, variant[1]);
      }
      long wall = median(walls);
      long heap = median(heaps);
      if (variant[1] == null) {
        baseWall = wall;
        baseHeap = heap;
      }
      System.out.printf(
          Locale.ROOT,
          "%-22s %12d %14.1f%s%n",
          variant[0],
          wall,
          heap / 1048576.0,
          variant[1] == null
              ? ""
              : String.format(
                  Locale.ROOT,
                  "   (+%d ms, +%.1f MiB)",
                  wall - baseWall,
                  (heap - baseHeap) / 1048576.0));
    }
  }

  private static List<String> command(String java, String cp, Path agent, String agentArgs) {
    List<String> command = new ArrayList<>(List.of(java, "-Xshare:auto"));
    if (agentArgs != null) {
      command.add("-javaagent:" + agent + "=" + agentArgs);
    }
    command.addAll(List.of("-cp", cp, HelloHeap.class.getName()));
    return command;
  }

  private static long wallMillis(String java, String cp, Path agent, String agentArgs)
      throws IOException, InterruptedException {
    long start = System.nanoTime();
    run(command(java, cp, agent, agentArgs));
    return (System.nanoTime() - start) / 1_000_000;
  }

  private static long heapBytes(String java, String cp, Path agent, String agentArgs)
      throws IOException, InterruptedException {
    List<String> command = command(java, cp, agent, agentArgs);
    command.add("1500");
    String out = run(command);
    int at = out.indexOf("heap-used=");
    return Long.parseLong(out.substring(at + 10).strip());
  }

  private static String run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException(command + " exited " + p.exitValue() + ": " + out);
    }
    return out;
  }

  private static long median(long[] values) {
    long[] sorted = Arrays.copyOf(values, values.length);
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
