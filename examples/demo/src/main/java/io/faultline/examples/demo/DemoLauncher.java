package io.faultline.examples.demo;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The one-command demo ({@code ./demo}): starts an embedded PostgreSQL and an embedded Kafka
 * broker, runs the demo service with {@code -javaagent:} on the built agent jar, plays each {@link
 * Scene}, prints what Faultline found and a summary, and stops everything it started on the way out
 * (also on Ctrl-C). Exit status 0 when every scene that ran found what it expected, 1 otherwise, 2
 * for a usage error, 3 when the servers or the service could not start.
 */
public final class DemoLauncher {

  /** The demo's {@code jooq.statement-timeout}, seconds. */
  static final int STATEMENT_TIMEOUT_S = 2;

  /** The demo's {@code jooq.health.long-transaction}, seconds. */
  static final int LONG_TRANSACTION_S = 5;

  private static final Duration KEEP_OPEN = Duration.ofSeconds(60);

  private final Deque<AutoCloseable> resources = new ArrayDeque<>();
  private final Console console;
  private final DemoOptions options;

  private DemoLauncher(Console console, DemoOptions options) {
    this.console = console;
    this.options = options;
  }

  /** The scenes in the order they run. */
  static List<Scene> allScenes() {
    return List.of(
        new SavepointScene(),
        new RunawayQueryScene(),
        new LongTransactionScene(),
        new ProduceScene(),
        new BrokerRestartScene(),
        new ConnectionChurnScene(),
        new WindowScaleScene());
  }

  /** See the class comment; {@code --help} lists the arguments. */
  public static void main(String[] args) {
    // zonky logs every initdb line through SLF4J; the demo's own output says what happens
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    DemoOptions options;
    try {
      options = DemoOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("demo: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (options.help()) {
      System.out.print(DemoOptions.help(allScenes()));
      return;
    }
    boolean terminal =
        System.getProperty("faultline.demo.tty") != null
            ? Boolean.getBoolean("faultline.demo.tty")
            : System.console() != null;
    System.exit(new DemoLauncher(new Console(System.out, terminal), options).run());
  }

  private int run() {
    List<Scene> scenes;
    try {
      scenes = select(options.scenes());
    } catch (IllegalArgumentException e) {
      System.err.println("demo: " + e.getMessage());
      return 2;
    }
    Thread hook = new Thread(this::closeAll, "demo-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      return play(scenes);
    } catch (Exception e) {
      console.raw("");
      console.raw("demo: " + e.getMessage());
      console.raw("      (logs in examples/demo/target/run)");
      return 3;
    } finally {
      closeAll();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // already shutting down
      }
    }
  }

  private static List<Scene> select(List<String> names) {
    List<Scene> all = allScenes();
    if (names.isEmpty()) {
      return all;
    }
    List<Scene> chosen = new ArrayList<>();
    for (Scene s : all) {
      if (names.contains(s.name())) {
        chosen.add(s);
      }
    }
    for (String n : names) {
      if (all.stream().noneMatch(s -> s.name().equals(n))) {
        throw new IllegalArgumentException(
            "no scene '"
                + n
                + "'; the scenes are "
                + all.stream().map(Scene::name).collect(Collectors.joining(", ")));
      }
    }
    return chosen;
  }

  private int play(List<Scene> scenes) throws Exception {
    long started = System.nanoTime();
    DemoPaths paths = DemoPaths.locate();
    Path work = paths.work();
    deleteRecursively(work);
    Files.createDirectories(work);
    console.heading("Faultline demo: " + scenes.size() + " scene(s); logs in " + work);

    PostgresServer postgres;
    try (Console.Progress p =
        console.progress("starting PostgreSQL (embedded, zonky)", Duration.ofSeconds(8))) {
      postgres = own(PostgresServer.start(work.resolve("postgres")));
    }

    KafkaCluster kafka = null;
    BrokerNamespace namespace = null;
    String whyNoNamespace = "not needed by the scenes asked for";
    if (scenes.stream().anyMatch(Scene::needsKafka)) {
      if (scenes.stream().anyMatch(s -> s instanceof WindowScaleScene)) {
        BrokerNamespace.Result ns = BrokerNamespace.create();
        namespace = ns.namespace();
        whyNoNamespace = ns.whyNot();
        if (namespace != null) {
          own(namespace);
        }
      }
      Path kafkaWork = Files.createDirectories(work.resolve("kafka"));
      kafka = KafkaCluster.create(paths, kafkaWork, namespace);
      try (Console.Progress p =
          console.progress(
              "starting Kafka (2 embedded KRaft brokers on "
                  + (namespace == null ? "127.0.0.1" : namespace.brokerAddress() + ", own netns")
                  + ")",
              Duration.ofSeconds(20))) {
        own(kafka).start(p::tick);
      }
    }

    int port = freePort();
    String agentArgs =
        String.join(
            ",",
            "prometheus.port=" + port,
            "jooq.statement-timeout=" + STATEMENT_TIMEOUT_S + "s",
            "jooq.health.interval=1s",
            "jooq.health.long-transaction=" + LONG_TRANSACTION_S + "s",
            "net.churn.interval=1s",
            "net.churn.sustained-intervals=2",
            "net.churn.port-share=0.01",
            "kafka.tcp.interval=1s",
            "doctor.interval=0s");
    ServiceProcess service;
    try (Console.Progress p =
        console.progress("starting the service with -javaagent:", Duration.ofSeconds(6))) {
      service =
          own(
              ServiceProcess.start(
                  paths,
                  agentArgs,
                  work.resolve("service.log"),
                  List.of(
                      postgres.jdbcUrl(),
                      postgres.user(),
                      postgres.password(),
                      kafka == null ? "none" : kafka.bootstrapServers())));
    }
    console.line(
        "agent: -javaagent:" + paths.home().relativize(paths.agentJar()) + "=" + agentArgs);
    AgentEndpoint agent = new AgentEndpoint(port);
    console.line("status page: " + agent.statusPage());
    MetricsRecorder recorder = null;
    if (options.recordMetrics() != null) {
      recorder = own(new MetricsRecorder(agent, options.recordMetrics()));
      console.line("recording /metrics every second to " + recorder.directory());
    }
    DemoContext context =
        new DemoContext(console, service, agent, kafka, namespace, whyNoNamespace);

    List<SummaryTable.Row> rows = new ArrayList<>();
    int index = 0;
    for (Scene scene : scenes) {
      index++;
      console.heading(
          "Scene "
              + index
              + "/"
              + scenes.size()
              + ": "
              + scene.title()
              + "  ["
              + scene.name()
              + "]");
      console.line("Incident: " + scene.incident());
      SceneOutcome outcome;
      var skip = scene.skipReason(context);
      if (skip.isPresent()) {
        console.line("SKIPPED: " + skip.get());
        outcome = SceneOutcome.skipped(skip.get());
      } else {
        outcome = scene.play(context);
      }
      rows.add(new SummaryTable.Row(scene, outcome));
    }

    console.heading("Summary");
    console.raw(SummaryTable.render(rows));
    long failed = rows.stream().filter(r -> r.outcome().ran() && !r.outcome().found()).count();
    double seconds = (System.nanoTime() - started) / 1e9;
    console.line(
        String.format(
            Locale.ROOT,
            "%d scene(s) ran, %d found what they should, %d skipped; %.0f s.",
            rows.stream().filter(r -> r.outcome().ran()).count(),
            rows.stream().filter(r -> r.outcome().found()).count(),
            rows.stream().filter(r -> !r.outcome().ran()).count(),
            seconds));
    if (recorder != null) {
      console.line(recorder.saved() + " scrapes saved in " + recorder.directory());
    }
    console.line(
        "Status page: "
            + agent.statusPage()
            + "   findings: "
            + agent.statusPage()
            + "faultline/findings");
    keepOpen();
    service.close();
    String errors = service.agentErrorsAtExit();
    if (!errors.isEmpty()) {
      console.line(
          "The agent reported errors of its own: " + errors + " (see " + service.log() + ")");
      failed++;
    }
    return failed == 0 ? 0 : 1;
  }

  /** Keeps the status page up until Enter or {@link #KEEP_OPEN}, when someone can look at it. */
  private void keepOpen() {
    if (options.noWait() || !console.isTerminal()) {
      return;
    }
    console.line("Press Enter to stop (stops by itself in " + KEEP_OPEN.toSeconds() + " s).");
    CountDownLatch enter = new CountDownLatch(1);
    Thread reader =
        new Thread(
            () -> {
              try {
                new java.io.BufferedReader(
                        new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8))
                    .readLine();
              } catch (IOException e) {
                // treated as Enter
              }
              enter.countDown();
            },
            "demo-enter");
    reader.setDaemon(true);
    reader.start();
    try {
      enter.await(KEEP_OPEN.toSeconds(), TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private synchronized <T extends AutoCloseable> T own(T resource) {
    resources.push(resource);
    return resource;
  }

  /** Closes what was started, newest first; safe to call twice (finally and the shutdown hook). */
  private synchronized void closeAll() {
    while (!resources.isEmpty()) {
      AutoCloseable r = resources.pop();
      try {
        r.close();
      } catch (Exception e) {
        System.err.println("demo: could not stop " + r.getClass().getSimpleName() + ": " + e);
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
