package io.faultline.it.bench;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.KafkaNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the Kafka benchmark children on the last CPU and the broker on the others ({@code taskset}),
 * for as long as it is open. Left free, a client's threads and the broker's meet on one CPU or
 * spread over two at random, and the same child's CPU per record moves by up to 2× from one run to
 * the next (wake-ups across CPUs, its sending thread contending with its I/O thread): far more than
 * an agent costs (see docs/benchmarks.md). Needs two CPUs and {@code taskset}; without them nothing
 * is pinned and {@link #description()} says so.
 */
final class CpuPinning implements AutoCloseable {

  private final List<ProcessHandle> broker;
  private final int cpus; // 0: not pinned
  private final String description;

  private CpuPinning(List<ProcessHandle> broker, int cpus, String description) {
    this.broker = broker;
    this.cpus = cpus;
    this.description = description;
  }

  /** Pins every node of {@code kafka} to all CPUs but the last, which the children get. */
  static CpuPinning of(KafkaCluster kafka) {
    List<ProcessHandle> broker = new ArrayList<>();
    for (KafkaNode node : kafka.nodes()) {
      broker.addAll(node.processes());
    }
    return of(broker, Runtime.getRuntime().availableProcessors());
  }

  /** Pins {@code broker} to CPUs 0 to {@code cpus - 2}; the children get CPU {@code cpus - 1}. */
  static CpuPinning of(List<ProcessHandle> broker, int cpus) {
    if (cpus < 2) {
      return unpinned("one CPU only");
    }
    if (broker.isEmpty()) {
      return unpinned("the broker's processes are unknown");
    }
    String all = allCpus(cpus);
    String others = cpus == 2 ? "0" : "0-" + (cpus - 2);
    try {
      for (ProcessHandle p : broker) {
        taskset(others, p);
      }
    } catch (IllegalStateException e) {
      broker.forEach(p -> tasksetQuietly(all, p));
      return unpinned(e.getMessage());
    }
    return new CpuPinning(
        List.copyOf(broker),
        cpus,
        "the children on CPU "
            + (cpus - 1)
            + " (each sized as if it had all "
            + cpus
            + ") and the broker on CPU "
            + others
            + " (`taskset`)");
  }

  private static CpuPinning unpinned(String why) {
    return new CpuPinning(
        List.of(), 0, "children and broker free to run on any CPU (not pinned: " + why + ")");
  }

  /** {@code command}, run on the children's CPU when pinned. */
  List<String> wrap(List<String> command) {
    if (cpus == 0) {
      return command;
    }
    List<String> wrapped = new ArrayList<>(List.of("taskset", "-c", Integer.toString(cpus - 1)));
    wrapped.addAll(command);
    return wrapped;
  }

  /**
   * JVM options that keep a pinned child's ergonomics those of the whole machine. A JVM that sees
   * one CPU is not "server class": it picks SerialGC and fewer compiler threads, so pinning alone
   * would change the collector the agent is measured under, not only where the child runs.
   */
  List<String> jvmOptions() {
    if (cpus == 0) {
      return List.of();
    }
    return List.of("-XX:ActiveProcessorCount=" + cpus);
  }

  /** Where the children and the broker ran, for the report. */
  String description() {
    return description;
  }

  /** Lets the broker run on every CPU again. */
  @Override
  public void close() {
    broker.forEach(p -> tasksetQuietly(allCpus(cpus), p));
  }

  private static String allCpus(int cpus) {
    return "0-" + (cpus - 1);
  }

  private static void tasksetQuietly(String cpus, ProcessHandle p) {
    try {
      taskset(cpus, p);
    } catch (IllegalStateException e) {
      System.err.println("bench: " + e.getMessage());
    }
  }

  /** Every thread of {@code p} ({@code -a}) to {@code cpus}; a process that ended is skipped. */
  private static void taskset(String cpus, ProcessHandle p) {
    if (!p.isAlive()) {
      return;
    }
    List<String> command = List.of("taskset", "-a", "-p", "-c", cpus, Long.toString(p.pid()));
    try {
      Process t = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(t.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!t.waitFor(10, TimeUnit.SECONDS) || (t.exitValue() != 0 && p.isAlive())) {
        throw new IllegalStateException(String.join(" ", command) + " failed: " + out.strip());
      }
    } catch (IOException e) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(String.join(" ", command) + " interrupted", e);
    }
  }
}
