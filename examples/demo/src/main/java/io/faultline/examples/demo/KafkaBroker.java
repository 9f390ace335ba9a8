package io.faultline.examples.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A real single-node Kafka broker (KRaft: broker and controller in one process) as a child JVM,
 * started by the integration suite's own start script ({@code
 * src/test/docker/kafka/kafka-start.sh}) on the broker's own jars ({@code
 * src/test/docker/kafka/target/broker-libs}, built by Maven) — never on the demo's class path. Runs
 * in a {@link BrokerNamespace} when given one.
 */
final class KafkaBroker implements AutoCloseable {

  private static final String STARTED = "Kafka Server started";

  private final Path script;
  private final Map<String, String> env;
  private final List<String> prefix;
  private final String host;
  private final int port;
  private final Path log;
  private Process process;
  private int starts;
  private boolean closed;

  private KafkaBroker(
      Path script, Map<String, String> env, List<String> prefix, String host, int port, Path log) {
    this.script = script;
    this.env = env;
    this.prefix = prefix;
    this.host = host;
    this.port = port;
    this.log = log;
  }

  /**
   * Node {@code nodeId} (not yet started) of a cluster whose controller is node 1 at {@code
   * controller} ({@code host:port}); data and log under {@code work}. Node 1 is broker and
   * controller, the others brokers only, so any node but 1 can restart while the quorum stays up.
   */
  static KafkaBroker create(
      DemoPaths paths, Path work, BrokerNamespace namespace, int nodeId, int port, int controller) {
    Path libs = paths.brokerLibs();
    if (!Files.isDirectory(libs)) {
      throw new IllegalStateException(
          libs + " is missing: build first (./demo does: ./mvnw -pl examples/demo -am package)");
    }
    String host = namespace == null ? "127.0.0.1" : namespace.brokerAddress();
    Map<String, String> env = new java.util.HashMap<>();
    env.put("KAFKA_NODE_ID", Integer.toString(nodeId));
    env.put("KAFKA_ADVERTISED_HOST", host);
    env.put("KAFKA_BROKER_PORT", Integer.toString(port));
    env.put("KAFKA_CONTROLLER_PORT", Integer.toString(controller));
    env.put("KAFKA_CONTROLLER_QUORUM_VOTERS", "1@" + host + ":" + controller);
    env.put("KAFKA_LIBS", libs.toString());
    env.put("KAFKA_DATA_DIR", work.resolve("node-" + nodeId + "/data").toString());
    env.put("KAFKA_HEAP_OPTS", "-Xms128m -Xmx384m");
    env.put("KAFKA_CFG_NUM_PARTITIONS", "4");
    env.put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    if (nodeId != 1) {
      // later lines of the properties file win: a broker-only node without the controller listener
      env.put("KAFKA_CFG_PROCESS_ROLES", "broker");
      env.put("KAFKA_CFG_LISTENERS", "PLAINTEXT://:" + port);
    }
    List<String> prefix = namespace == null ? List.of() : namespace.commandPrefix();
    return new KafkaBroker(
        paths.brokerStartScript(),
        Map.copyOf(env),
        prefix,
        host,
        port,
        work.resolve("node-" + nodeId + ".log"));
  }

  /** A free port on this host (for a broker outside a namespace). */
  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  java.net.InetSocketAddress address() {
    return new java.net.InetSocketAddress(host, port);
  }

  String bootstrapServers() {
    return host + ":" + port;
  }

  int port() {
    return port;
  }

  /** Starts the broker and waits until it serves, calling {@code tick} while it waits. */
  void start(Consumer<String> tick) {
    launch();
    awaitStarted(tick);
  }

  /** Starts the broker's process. */
  synchronized void launch() {
    if (closed) {
      // the demo is shutting down (Ctrl-C during a restart): start nothing that would outlive it
      throw new IllegalStateException("the demo is stopping");
    }
    List<String> command = new ArrayList<>(prefix);
    command.add("bash");
    command.add(script.toString());
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(env);
    builder.redirectErrorStream(true);
    builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the Kafka broker", e);
    }
    starts++;
  }

  /** Waits until the last {@link #launch} serves, calling {@code tick} while it waits. */
  void awaitStarted(Consumer<String> tick) {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (startedCount() < starts) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the Kafka broker exited with " + process.exitValue() + "; its log: " + log);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the Kafka broker did not start in 2 min; its log: " + log);
      }
      tick.accept("");
      sleep(200);
    }
  }

  /** Stops the broker the way an orchestrator does: SIGTERM, a controlled shutdown. */
  synchronized void stop() {
    if (process == null || !process.isAlive()) {
      return;
    }
    process.descendants().forEach(ProcessHandle::destroy);
    process.destroy();
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  Path log() {
    return log;
  }

  private int startedCount() {
    try {
      if (!Files.exists(log)) {
        return 0;
      }
      String text = Files.readString(log);
      int count = 0;
      for (int at = text.indexOf(STARTED); at >= 0; at = text.indexOf(STARTED, at + 1)) {
        count++;
      }
      return count;
    } catch (IOException e) {
      return 0;
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
    }
    stop();
  }
}
