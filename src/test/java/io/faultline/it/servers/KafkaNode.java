package io.faultline.it.servers;

import java.net.InetSocketAddress;

/**
 * One node of a test {@link KafkaCluster}: where clients reach it, and the levers a fault test
 * pulls. In {@link ServerMode#DOCKER} mode the address is the container's own (not a port mapping
 * through Docker's userland proxy), so TCP-level facts measured by a client are those of the
 * broker's socket.
 */
public interface KafkaNode {

  /** The node id. */
  int id();

  /** The address clients connect to (the broker's advertised listener). */
  InetSocketAddress address();

  /** Stops the broker process cleanly (controlled shutdown); the node keeps its data. */
  void stop();

  /**
   * Kills the broker process at once (SIGKILL, as {@code kill -9}): no controlled shutdown, open
   * connections reset; the node keeps what reached its log files and {@link #start()} recovers it.
   */
  void kill();

  /** Starts a stopped node and waits until it serves again. */
  void start();

  /**
   * Starts a stopped node like {@link #start()}, running {@code beforeServing} as soon as its
   * process runs (for a container: its network namespace exists) and before waiting for it to
   * serve, so a network fault can be in place before any client reconnects. Embedded nodes run it
   * first, then start.
   */
  default void start(BeforeServing beforeServing) throws Exception {
    beforeServing.run();
    start();
  }

  /** What {@link #start(BeforeServing)} runs once the node's process is up. */
  @FunctionalInterface
  interface BeforeServing {
    void run() throws Exception;
  }

  /** {@link #stop()} then {@link #start()}. */
  default void restart() {
    stop();
    start();
  }

  /** Freezes the broker process (SIGSTOP): connections stay open but nothing is answered. */
  void pause();

  /** Resumes a paused broker. */
  void unpause();

  /**
   * Reads a file under {@code /proc} as the broker sees it, e.g. {@code /proc/net/netstat} for its
   * SYN cookie counters: the container's network namespace in Docker mode, this host's when
   * embedded.
   */
  String readProcFile(String path);

  /** True when the node runs in its own container (and so its own network namespace). */
  boolean isContainer();

  /** The broker's remote JMX address (no authentication), when it has one (containers do). */
  default java.util.Optional<InetSocketAddress> jmxAddress() {
    return java.util.Optional.empty();
  }

  /**
   * A process id in the node's own network namespace (for {@code nsenter -t PID -n}), when it has
   * one of its own (containers do).
   */
  default java.util.OptionalLong networkNamespacePid() {
    return java.util.OptionalLong.empty();
  }

  /**
   * The host processes that run the broker (its JVM and whatever started it), for pinning it to
   * CPUs with {@code taskset}; empty while the node is stopped.
   */
  default java.util.List<ProcessHandle> processes() {
    return java.util.List.of();
  }
}
