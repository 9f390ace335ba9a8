package io.faultline.it.agent;

import io.faultline.it.servers.SmallBacklogKafka;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;

/**
 * The reconnect-storm lab (issue #6): three broker containers with small listen queues; client JVMs
 * running {@code KafkaStormClientsApp} under the agent; broker 2 restarts, its partition moves to
 * broker 1, and a preferred leader election hands it back, so every client wants broker 2 at the
 * same moment (the LINE Kafka incident's burst, which no reconnect backoff can spread). Broker 2's
 * namespace is sampled every 10 ms. The same run does it twice, with fresh client JVMs: first
 * {@code kafka.stagger=false}, then with the gate on, and finally reads the topic back to account
 * for every acknowledged record.
 */
final class ReconnectStorm {

  static final String TOPIC = "storm";
  static final int RESTARTED = 2;

  /**
   * How big a run is.
   *
   * @param jvms client JVMs per phase
   * @param producersPerJvm idempotent producers per JVM
   * @param consumersPerJvm consumers per JVM
   * @param window {@code kafka.stagger.window}
   * @param backlog listen queue sizes of the brokers
   * @param observe how long to sample after the election is done
   * @param sendInterval time between two records of one producer
   * @param fetch how the consumers fetch
   */
  record Scale(
      int jvms,
      int producersPerJvm,
      int consumersPerJvm,
      Duration window,
      int backlog,
      Duration observe,
      Duration sendInterval,
      Fetch fetch) {
    int clients() {
      return jvms * (producersPerJvm + consumersPerJvm);
    }
  }

  /**
   * The consumers' {@code fetch.min.bytes} and {@code fetch.max.wait.ms}. With one byte, every
   * consumer's fetch returns with the next record, and hundreds of consumers tailing a busy topic
   * keep the shared cores busy in steady state; a large minimum parks each fetch at the broker for
   * the wait instead.
   */
  record Fetch(int minBytes, Duration maxWait) {
    /** Kafka's default minimum, a short wait: a fetch per record. */
    static final Fetch EAGER = new Fetch(1, Duration.ofMillis(200));
  }

  /** One phase: its samples and its record account. */
  record Phase(
      String name,
      boolean gate,
      StormSeries series,
      StormLedger.Account records,
      long failed,
      GateTally gateDecisions) {}

  /** Both phases of a run. */
  record Result(Scale scale, Phase off, Phase on) {}

  private final Scale scale;
  private final Path workDir;

  ReconnectStorm(Scale scale, Path workDir) {
    this.scale = scale;
    this.workDir = workDir;
  }

  Result run() throws Exception {
    Files.createDirectories(workDir);
    try (SmallBacklogKafka kafka = new SmallBacklogKafka(3, scale.backlog())) {
      createTopic(kafka);
      Phase off = phase(kafka, "off", false);
      Phase on = phase(kafka, "on", true);
      StormLedger ledger = StormLedger.read(kafka.bootstrap(1), TOPIC, 2);
      return new Result(
          scale,
          withAccount(off, ledger.account("off-", ackedFiles("off"))),
          withAccount(on, ledger.account("on-", ackedFiles("on"))));
    }
  }

  private static Phase withAccount(Phase p, StormLedger.Account account) {
    return new Phase(p.name(), p.gate(), p.series(), account, p.failed(), p.gateDecisions());
  }

  private List<Path> ackedFiles(String phase) {
    List<Path> files = new ArrayList<>();
    for (int j = 0; j < scale.jvms(); j++) {
      files.add(workDir.resolve(phase + "-j" + j + ".acked"));
    }
    return files;
  }

  private Phase phase(SmallBacklogKafka kafka, String name, boolean gate) throws Exception {
    List<ChildJvm.Running> children = new ArrayList<>();
    List<Integer> ports = new ArrayList<>();
    try {
      List<Path> readyFiles = new ArrayList<>();
      for (int j = 0; j < scale.jvms(); j++) {
        Path ready = workDir.resolve(name + "-j" + j + ".ready");
        Files.deleteIfExists(ready);
        Files.deleteIfExists(ackedFiles(name).get(j));
        readyFiles.add(ready);
        int port = Http.freePort();
        ports.add(port);
        children.add(startClients(kafka, name, j, gate, ready, port));
      }
      awaitReady(children, readyFiles);

      kafka.restart(RESTARTED);
      awaitInSync(kafka);
      Thread.sleep(3000); // the clients settle on broker 1; none wants broker 2 now

      InetSocketAddress broker = kafka.address(RESTARTED);
      StormSampler sampler =
          new StormSampler(
              kafka.procNet(RESTARTED, "snmp"), kafka.procNet(RESTARTED, "netstat"), broker);
      GateTally before = GateTally.scrape(ports, RESTARTED);
      sampler.start();
      Thread.sleep(500);
      // Time 0 is when the controller has done the election (seconds after the request on a busy
      // machine): from then on every client may learn that it needs broker 2.
      electPreferredLeader(kafka);
      long electedAt = System.nanoTime();
      // The same clock as the children's safepoint logs (System.nanoTime, CLOCK_MONOTONIC).
      writeFile(workDir.resolve(name + ".elected-at-nanos"), Long.toString(electedAt));
      TimeUnit.NANOSECONDS.sleep(scale.observe().toNanos());
      List<StormSampler.Sample> samples = sampler.stop();
      GateTally decisions = GateTally.scrape(ports, RESTARTED).since(before);
      StormSeries series =
          new StormSeries(
              samples,
              electedAt,
              scale.clients(),
              sampler.kind() + (sampler.realtime() ? ", SCHED_FIFO" : ", normal priority"));

      long failed = 0;
      for (int j = 0; j < children.size(); j++) {
        ChildJvm.Running child = children.get(j);
        child.send("stop");
        ChildJvm.Result result = child.awaitExit(180);
        ChildJvm.save("storm-" + name + "-j" + j + ".stderr.txt", result.stderr());
        ChildJvm.save("storm-" + name + "-j" + j + ".stdout.txt", result.stdout());
        result.assertCleanExit();
        failed += count(result.stdout(), "failed=");
      }
      return new Phase(name, gate, series, null, failed, decisions);
    } finally {
      children.forEach(ChildJvm.Running::close);
    }
  }

  private ChildJvm.Running startClients(
      SmallBacklogKafka kafka, String phase, int jvm, boolean gate, Path ready, int port) {
    ChildJvm child =
        ChildJvm.on(Jdk.current())
            // 512 MiB made the serial collector's full collections of 250 clients take seconds.
            .option("-Xmx1g")
            .option("-Xss256k")
            .option("-XX:+UseSerialGC")
            // Pauses of a client JVM hold all its clients at once: logged to tell them apart
            // from the gate's spread.
            .option(
                "-Xlog:safepoint:file="
                    + workDir.toAbsolutePath().resolve(phase + "-j" + jvm + ".safepoints.log")
                    + ":timenanos")
            .agentArgs(
                "prometheus.port="
                    + port
                    + ",kafka.stagger="
                    + gate
                    + ",kafka.stagger.window="
                    + scale.window().toMillis()
                    + "ms")
            .classPath(ChildJvm.jarOf(org.apache.kafka.clients.producer.KafkaProducer.class))
            .classPath(ChildJvm.jarOf(org.slf4j.Logger.class));
    return child.start(
        "io.faultline.it.agent.app.KafkaStormClientsApp",
        kafka.bootstrap(1),
        TOPIC,
        phase + "-j" + jvm,
        Integer.toString(scale.producersPerJvm()),
        Integer.toString(scale.consumersPerJvm()),
        ready.toString(),
        ackedFiles(phase).get(jvm).toString(),
        Long.toString(scale.sendInterval().toMillis()),
        Integer.toString(scale.fetch().minBytes()),
        Long.toString(scale.fetch().maxWait().toMillis()));
  }

  private static void awaitReady(List<ChildJvm.Running> children, List<Path> readyFiles)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(4).toNanos();
    while (!readyFiles.stream().allMatch(Files::exists)) {
      for (ChildJvm.Running c : children) {
        if (!c.isAlive()) {
          ChildJvm.Result r = c.awaitExit(5);
          throw new IllegalStateException(
              "a client JVM exited before it was ready: " + r.stdout() + r.stderr());
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the client JVMs were not ready within 4 minutes");
      }
      Thread.sleep(200);
    }
  }

  private static void createTopic(SmallBacklogKafka kafka) throws Exception {
    try (Admin admin = Admin.create(adminProps(kafka))) {
      // Partition 1 prefers broker 2: the one that restarts and takes its leadership back.
      NewTopic topic = new NewTopic(TOPIC, Map.of(0, List.of(1, 2), 1, List.of(2, 1)));
      admin.createTopics(List.of(topic)).all().get(60, TimeUnit.SECONDS);
    }
  }

  private static void electPreferredLeader(SmallBacklogKafka kafka) throws Exception {
    try (Admin admin = Admin.create(adminProps(kafka))) {
      admin
          .electLeaders(ElectionType.PREFERRED, Set.of(new TopicPartition(TOPIC, 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("the preferred leader election failed", e.getCause());
    }
  }

  private static void awaitInSync(SmallBacklogKafka kafka) throws Exception {
    try (Admin admin = Admin.create(adminProps(kafka))) {
      long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
      while (System.nanoTime() < deadline) {
        TopicDescription topic =
            admin
                .describeTopics(List.of(TOPIC))
                .allTopicNames()
                .get(10, TimeUnit.SECONDS)
                .get(TOPIC);
        boolean back =
            topic.partitions().stream()
                .allMatch(p -> p.isr().stream().anyMatch(n -> n.id() == RESTARTED));
        if (back) {
          return;
        }
        Thread.sleep(250);
      }
    }
    throw new IllegalStateException("broker " + RESTARTED + " did not rejoin the ISR");
  }

  private static Properties adminProps(SmallBacklogKafka kafka) {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap(1));
    return p;
  }

  private static long count(String out, String key) {
    int i = out.indexOf(key);
    if (i < 0) {
      return -1;
    }
    int j = i + key.length();
    int k = j;
    while (k < out.length() && Character.isDigit(out.charAt(k))) {
      k++;
    }
    return Long.parseLong(out.substring(j, k));
  }

  static void writeFile(Path file, String text) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
