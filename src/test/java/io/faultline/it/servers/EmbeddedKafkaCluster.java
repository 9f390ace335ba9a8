package io.faultline.it.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The same broker as the container image, run as child processes on 127.0.0.1 through the image's
 * own start script ({@code src/test/docker/kafka/kafka-start.sh}) with the same jars, so both modes
 * run one broker configuration.
 */
final class EmbeddedKafkaCluster implements KafkaCluster {

  private static final Duration CLOSE_GRACE = Duration.ofSeconds(15);

  private final List<Node> nodes;

  EmbeddedKafkaCluster(int size) {
    Path dockerDir = TestPaths.kafkaDockerDir();
    Path libs = dockerDir.resolve("target/broker-libs");
    if (!Files.isDirectory(libs)) {
      throw new IllegalStateException(
          libs
              + " is missing: build through Maven (./mvnw verify), which resolves the broker jars");
    }
    Path work = TestPaths.workDir("kafka");
    int[] brokerPorts = new int[size];
    int[] controllerPorts = new int[size];
    for (int i = 0; i < size; i++) {
      brokerPorts[i] = freePort();
      controllerPorts[i] = freePort();
    }
    StringBuilder voters = new StringBuilder();
    for (int i = 0; i < size; i++) {
      voters
          .append(i == 0 ? "" : ",")
          .append(i + 1)
          .append("@127.0.0.1:")
          .append(controllerPorts[i]);
    }
    List<Node> created = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      int id = i + 1;
      Map<String, String> env =
          Map.of(
              "KAFKA_NODE_ID", Integer.toString(id),
              "KAFKA_ADVERTISED_HOST", "127.0.0.1",
              "KAFKA_BROKER_PORT", Integer.toString(brokerPorts[i]),
              "KAFKA_CONTROLLER_PORT", Integer.toString(controllerPorts[i]),
              "KAFKA_CONTROLLER_QUORUM_VOTERS", voters.toString(),
              "KAFKA_LIBS", libs.toString(),
              "KAFKA_DATA_DIR", work.resolve("node-" + id + "/data").toString(),
              "KAFKA_CFG_OFFSETS_TOPIC_REPLICATION_FACTOR", Integer.toString(Math.min(size, 3)),
              "KAFKA_CFG_TRANSACTION_STATE_LOG_REPLICATION_FACTOR",
                  Integer.toString(Math.min(size, 3)),
              "JAVA", javaExecutable());
      created.add(
          new Node(
              id,
              brokerPorts[i],
              dockerDir.resolve("kafka-start.sh"),
              env,
              work.resolve("node-" + id + ".log")));
    }
    this.nodes = List.copyOf(created);
    try {
      nodes.forEach(Node::launch);
      for (Node node : nodes) {
        node.awaitStarted(1);
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  @Override
  public String bootstrapServers() {
    return nodes.stream().map(n -> "127.0.0.1:" + n.port).collect(Collectors.joining(","));
  }

  @Override
  public List<KafkaNode> nodes() {
    return List.copyOf(nodes);
  }

  /**
   * Stops every node at once and kills what is still running after {@link #CLOSE_GRACE}. One by
   * one, the last nodes of a cluster lose their controller quorum and the last one's shutdown waits
   * for it until {@link Node#stop()} gives up (a minute); the data is thrown away, as a container's
   * is when Testcontainers removes it.
   */
  @Override
  public void close() {
    nodes.forEach(Node::signalStopQuietly);
    long deadline = System.nanoTime() + CLOSE_GRACE.toNanos();
    nodes.forEach(node -> node.awaitStopOrKillQuietly(deadline));
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The java of this test JVM, so the broker runs on the JDK under test. */
  private static String javaExecutable() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static final class Node implements KafkaNode {
    private final int id;
    private final int port;
    private final Path script;
    private final Map<String, String> env;
    private final Path log;
    private Process process;
    private int starts;

    Node(int id, int port, Path script, Map<String, String> env, Path log) {
      this.id = id;
      this.port = port;
      this.script = script;
      this.env = env;
      this.log = log;
    }

    @Override
    public synchronized java.util.List<ProcessHandle> processes() {
      if (process == null || !process.isAlive()) {
        return java.util.List.of();
      }
      return java.util.stream.Stream.concat(
              java.util.stream.Stream.of(process.toHandle()), process.toHandle().descendants())
          .toList();
    }

    synchronized void launch() {
      ProcessBuilder builder = new ProcessBuilder("bash", script.toString());
      builder.environment().putAll(env);
      builder.redirectErrorStream(true);
      builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
      try {
        process = builder.start();
      } catch (IOException e) {
        throw new UncheckedIOException("could not start kafka node " + id, e);
      }
      starts++;
    }

    void awaitStarted(int count) {
      long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      while (startedCount() < count) {
        if (!process.isAlive()) {
          throw new IllegalStateException(
              "kafka node " + id + " exited with " + process.exitValue() + ", see " + log);
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("kafka node " + id + " did not start; see " + log);
        }
        Sleeps.sleep(Duration.ofMillis(200));
      }
    }

    private int startedCount() {
      try {
        if (!Files.exists(log)) {
          return 0;
        }
        String text = Files.readString(log);
        int count = 0;
        String started = DockerKafkaCluster.STARTED;
        for (int at = text.indexOf(started); at >= 0; at = text.indexOf(started, at + 1)) {
          count++;
        }
        return count;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public int id() {
      return id;
    }

    @Override
    public InetSocketAddress address() {
      return new InetSocketAddress("127.0.0.1", port);
    }

    @Override
    public synchronized void stop() {
      if (process == null || !process.isAlive()) {
        return;
      }
      process.destroy();
      try {
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    @Override
    public synchronized void kill() {
      if (process == null || !process.isAlive()) {
        return;
      }
      // The start script execs the broker's JVM, so this is the broker itself.
      process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    /** Asks the broker to stop (a paused one is resumed first) without waiting for it. */
    synchronized void signalStopQuietly() {
      try {
        unpause();
        if (process != null && process.isAlive()) {
          process.destroy();
        }
      } catch (RuntimeException e) {
        System.err.println("[faultline-it] could not stop kafka node " + id + ": " + e);
      }
    }

    /** Waits for a stopping broker until {@code deadline} (nano time), then kills it. */
    synchronized void awaitStopOrKillQuietly(long deadline) {
      if (process == null) {
        return;
      }
      try {
        long left = Math.max(0, deadline - System.nanoTime());
        if (!process.waitFor(left, TimeUnit.NANOSECONDS)) {
          kill();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException e) {
        System.err.println("[faultline-it] could not kill kafka node " + id + ": " + e);
      }
    }

    @Override
    public void start() {
      launch();
      awaitStarted(starts);
    }

    @Override
    public void pause() {
      signal("STOP");
    }

    @Override
    public void unpause() {
      signal("CONT");
    }

    private synchronized void signal(String name) {
      if (process == null || !process.isAlive()) {
        return;
      }
      try {
        new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
            .inheritIO()
            .start()
            .waitFor(10, TimeUnit.SECONDS);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    @Override
    public String readProcFile(String path) {
      try {
        return Files.readString(Path.of(path));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public boolean isContainer() {
      return false;
    }
  }
}
