package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.tools.attach.VirtualMachine;
import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shapes of application start-up that once made the agent hang its host (a class that a module
 * targets loaded while the agent was still installing, under a class-loading lock the installer
 * then needed), each a small application in {@code app.startup} that produces to the real broker
 * and runs a nested transaction on the real PostgreSQL, on every available JDK: run without the
 * agent, then with it. The run with the agent must get to the end of its work within a bound close
 * to the run without it, and the agent must have instrumented that work (produce phases timed, the
 * savepoint and the nesting counted).
 */
@ExtendWith(RealServers.class)
@Tag("real-world")
class StartupShapesTest {

  private static final String APPS = "example.startup.";

  /** The shapes that start with the agent on the command line. */
  enum Shape {
    JOOQ_LAMBDA_IN_MAIN("JooqLambdaInMainApp"),
    KAFKA_CALLBACK_FIELD("KafkaCallbackFieldApp"),
    STATIC_INITIALIZER("StaticInitializerApp"),
    CONCURRENT_FIRST_LOAD("ConcurrentFirstLoadApp"),
    PARALLEL_PLUGIN_LOADER("PluginLoaderApp", "parallel"),
    SERIAL_PLUGIN_LOADER("PluginLoaderApp", "serial");

    final String mainClass;
    final List<String> leadingArgs;

    Shape(String app, String... leadingArgs) {
      this.mainClass = APPS + app;
      this.leadingArgs = List.of(leadingArgs);
    }

    boolean pluginLoader() {
      return !leadingArgs.isEmpty();
    }
  }

  static Stream<Arguments> shapes() {
    List<Arguments> cases = new ArrayList<>();
    for (Jdk jdk : Jdk.available()) {
      for (Shape shape : Shape.values()) {
        cases.add(Arguments.of(jdk, shape));
      }
    }
    return cases.stream();
  }

  static Stream<Jdk> jdks() {
    return Jdk.available().stream();
  }

  @ParameterizedTest(name = "{0}, {1}")
  @MethodSource("shapes")
  void startsAsFastAsWithoutTheAgentAndIsInstrumented(
      Jdk jdk, Shape shape, KafkaCluster kafka, PostgresServer postgres) throws Exception {
    String label = shape.name().toLowerCase(Locale.ROOT) + "-" + jdk;
    double without;
    try (WatchedChild child =
        WatchedChild.start(
            "startup-" + label + "-without",
            child(jdk, shape).withoutAgent(),
            shape.mainClass,
            args(shape, kafka, postgres, label))) {
      without = child.awaitOutput("done ", Duration.ofSeconds(120));
      child.stopCleanly();
    }
    for (int attempt = 1; ; attempt++) {
      if (withAgent(jdk, shape, kafka, postgres, label, without, attempt)) {
        return;
      }
    }
  }

  /**
   * The run with the agent; false (to run it again, twice at most) when its endpoint could not bind
   * the port found free a moment before: another process took it meanwhile.
   */
  private static boolean withAgent(
      Jdk jdk,
      Shape shape,
      KafkaCluster kafka,
      PostgresServer postgres,
      String label,
      double without,
      int attempt)
      throws Exception {
    int port = Http.freePort();
    try (WatchedChild child =
        WatchedChild.start(
            "startup-" + label + "-with",
            child(jdk, shape).agentArgs("prometheus.port=" + port),
            shape.mainClass,
            args(shape, kafka, postgres, label))) {
      double with = child.awaitOutput("done ", StartupChecks.bound(label, without));
      StartupChecks.report(label, without, with);
      // The agent serves its endpoint once it has installed and woven what loaded meanwhile:
      // the work again then shows that those classes are instrumented.
      try {
        StartupChecks.awaitMetrics(port, m -> true, "the agent's endpoint", Duration.ofSeconds(30));
      } catch (AssertionError notServing) {
        if (attempt < 3 && child.output().contains("cannot serve /metrics")) {
          return false;
        }
        throw notServing;
      }
      child.send("again");
      child.awaitOutputFromNow("again done 1", Duration.ofSeconds(60));
      PrometheusText metrics = awaitInstrumented(port);
      child.stopCleanly();
      assertInstrumented(metrics);
      StartupChecks.assertStartupBlockedBelowATenth(metrics);
      return true;
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void lateAttachToAnApplicationAlreadyUsingTheLibraries(
      Jdk jdk, KafkaCluster kafka, PostgresServer postgres) throws Exception {
    String label = "late-attach-" + jdk;
    String main = APPS + "LateAttachApp";
    double without;
    try (WatchedChild child =
        WatchedChild.start(
            "startup-" + label + "-without",
            libraries(ChildJvm.on(jdk).withoutAgent()),
            main,
            args(null, kafka, postgres, label))) {
      child.awaitOutput("warm", Duration.ofSeconds(120));
      child.send("work");
      without = child.awaitOutputFromNow("done late-attach 1", Duration.ofSeconds(120));
      child.stopCleanly();
    }
    int port = Http.freePort();
    try (WatchedChild child =
        WatchedChild.start(
            "startup-" + label + "-with",
            libraries(ChildJvm.on(jdk).withoutAgent()),
            main,
            args(null, kafka, postgres, label))) {
      child.awaitOutput("warm", Duration.ofSeconds(120));
      long attachStart = System.nanoTime();
      attach(child, "prometheus.port=" + port, StartupChecks.bound(0));
      // agentmain returns before the modules are installed: the work waits until they are.
      StartupChecks.awaitMetrics(
          port,
          m -> !m.find("faultline_agent_module_active_modules", java.util.Map.of()).isEmpty(),
          "the instrumentation modules",
          StartupChecks.bound(0));
      double installed = (System.nanoTime() - attachStart) / 1e9;
      child.send("work");
      double with =
          child.awaitOutputFromNow("done late-attach 1", StartupChecks.bound(label, without));
      StartupChecks.report(
          label + String.format(Locale.ROOT, " (installed in %.2f s)", installed), without, with);
      PrometheusText metrics = awaitInstrumented(port);
      child.stopCleanly();
      assertInstrumented(metrics);
      StartupChecks.assertStartupBlockedBelowATenth(metrics);
    }
  }

  /** Loads the agent into {@code child}; fails with the child's threads if that takes too long. */
  private static void attach(WatchedChild child, String agentArgs, Duration timeout)
      throws Exception {
    CompletableFuture<Void> loaded =
        CompletableFuture.runAsync(
            () -> {
              try {
                VirtualMachine vm = null;
                for (int i = 0; i < 100 && vm == null; i++) {
                  try {
                    vm = VirtualMachine.attach(String.valueOf(child.pid()));
                  } catch (com.sun.tools.attach.AttachNotSupportedException
                      | java.io.IOException e) {
                    Thread.sleep(100); // the attach listener is not up yet
                  }
                }
                assertThat(vm).as("attached to the child").isNotNull();
                try {
                  vm.loadAgent(ChildJvm.agentJar().toString(), agentArgs);
                } finally {
                  vm.detach();
                }
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    try {
      loaded.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      child.threadDump();
      throw new AssertionError(
          "agentmain did not return within " + timeout + "; output:\n" + child.output());
    }
  }

  private static PrometheusText awaitInstrumented(int port) throws InterruptedException {
    return StartupChecks.awaitMetrics(
        port,
        m ->
            StartupChecks.producePhases(m) >= 1
                && StartupChecks.savepointsCreated(m) >= 1
                && StartupChecks.nestedTransactions(m) >= 1,
        "produce phases, a savepoint and a nested transaction",
        Duration.ofSeconds(30));
  }

  private static void assertInstrumented(PrometheusText metrics) {
    assertThat(StartupChecks.producePhases(metrics))
        .as("produce requests timed")
        .isGreaterThanOrEqualTo(1);
    // The work's one savepoint after the agent started, and the first one if it was woven by then.
    assertThat(StartupChecks.savepointsCreated(metrics))
        .as("savepoints counted")
        .isBetween(1.0, 2.0);
    assertThat(StartupChecks.nestedTransactions(metrics))
        .as("nested transactions")
        .isBetween(1.0, 2.0);
    assertThat(metrics.sum("faultline_agent_errors_total", java.util.Map.of()))
        .as("suppressed agent errors")
        .isZero();
  }

  private static ChildJvm child(Jdk jdk, Shape shape) {
    ChildJvm child = ChildJvm.on(jdk);
    if (shape.pluginLoader()) {
      // The libraries only in the plugin loader's URLs, not on the class path.
      List<String> jars = new ArrayList<>();
      libraryJars().forEach(p -> jars.add(p.toString()));
      return child.option("-Dshape.jars=" + String.join(File.pathSeparator, jars));
    }
    return libraries(child);
  }

  private static ChildJvm libraries(ChildJvm child) {
    libraryJars().forEach(child::classPath);
    return child;
  }

  private static List<Path> libraryJars() {
    return List.of(
        ChildJvm.jarOf(org.apache.kafka.clients.producer.KafkaProducer.class),
        ChildJvm.jarOf(org.slf4j.Logger.class),
        ChildJvm.jarOf(org.jooq.DSLContext.class),
        ChildJvm.jarOf(org.reactivestreams.Publisher.class),
        ChildJvm.jarOf(io.r2dbc.spi.ConnectionFactory.class),
        ChildJvm.jarOf(com.zaxxer.hikari.HikariDataSource.class),
        ChildJvm.jarOf(org.postgresql.Driver.class));
  }

  /** The shapes' arguments: a fresh topic and table each. */
  private static String[] args(
      Shape shape, KafkaCluster kafka, PostgresServer postgres, String label) {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String topic = "startup-" + label + "-" + suffix;
    kafka.createTopic(topic, 1);
    String table = ("startup_" + label + "_" + suffix).replaceAll("[^a-zA-Z0-9_]", "_");
    List<String> args = new ArrayList<>();
    if (shape != null) {
      args.addAll(shape.leadingArgs);
    }
    args.addAll(
        List.of(
            kafka.bootstrapServers(),
            topic,
            postgres.jdbcUrl(),
            postgres.username(),
            postgres.password(),
            table));
    return args.toArray(String[]::new);
  }
}
