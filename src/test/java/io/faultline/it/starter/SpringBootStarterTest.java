package io.faultline.it.starter;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.ActiveFindingsInRecordings;
import io.faultline.it.agent.Jdk;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.it.servers.TestPaths;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * faultline-spring-boot-starter in a real Spring Boot web application with Actuator that declares
 * no Faultline bean ({@code src/test/spring-boot3-app} on Boot 3.5 and the suite's JDK; the same
 * sources as {@code src/test/spring-boot4-app} on Boot 4.0 and JDK 25), run from its executable jar
 * in a JVM of its own against a real PostgreSQL: the Channel.io outage's flow raises the findings
 * through the starter alone, Actuator shows them, the properties change what the guard does, and
 * without jOOQ the starter guards nothing and breaks nothing.
 */
@ExtendWith(RealServers.class)
@Tag(BootApp.TAG)
class SpringBootStarterTest {

  private static final Duration START = Duration.ofSeconds(120);

  @Test
  void boot35GuardsBootsProviderAndActuatorShowsTheFindings(PostgresServer postgres)
      throws Exception {
    try (BootApp app = BootApp.start(jar(), postgres)) {
      guardsAndShows(app);
    }
  }

  @Test
  void boot4OnJdk25GuardsBootsProviderAndActuatorShowsTheFindings(PostgresServer postgres)
      throws Exception {
    Jdk jdk25 =
        Jdk.available().stream().filter(j -> j.name().equals("jdk25")).findFirst().orElseThrow();
    jdk25.assumeInstalled();
    try (BootApp app =
        BootApp.start(
            jdk25.java(), List.of("-jar", TestPaths.springBoot4AppJar().toString()), postgres)) {
      guardsAndShows(app);
    }
  }

  /**
   * What both Boot generations show; JSON is matched field by field (Boot 4 orders it otherwise).
   */
  private static void guardsAndShows(BootApp app) throws Exception {
    String out = app.awaitLine("scenes done", START);
    assertThat(out)
        .contains("provider: GuardedTransactionProvider")
        .contains("savepointsCreated=1", "nestedAllowed=1")
        .contains("finding JOOQ_SAVEPOINT_AFTER_ROW_LOCK", "finding JOOQ_NESTED_TRANSACTION");

    String findings = app.get("/actuator/faultline");
    assertThat(findings)
        .contains("\"id\":\"JOOQ_SAVEPOINT_AFTER_ROW_LOCK\"", "\"severity\":\"CRITICAL\"")
        .contains("\"lockingStatement\":\"SELECT * FROM boot_starter_account WHERE id = ? FOR")
        .contains("\"advice\":\"Do not open a nested transaction after SELECT ... FOR UPDATE");

    String health = app.get("/actuator/health");
    assertThat(health)
        .as("findings are details; the service stays UP")
        .contains("\"faultline\":{")
        .doesNotContain("\"status\":\"DOWN\"");
    assertThat(health.substring(health.indexOf("\"faultline\":{")))
        .contains("\"status\":\"UP\"", "\"activeFindings\":")
        .contains("\"id\":\"JOOQ_SAVEPOINT_AFTER_ROW_LOCK\",\"severity\":\"CRITICAL\"");

    // The guard's meters are bound to Actuator's own registry.
    assertThat(count(app.get("/actuator/metrics/faultline.jooq.savepoints?tag=outcome:created")))
        .isEqualTo(1.0);

    // PostgreSQL's statistics are polled through Boot's DataSource, tagged with its bean name,
    // and Boot's HikariCP pool is watched by the pool feedback.
    assertThat(
            countWithin(
                app,
                "/actuator/metrics/faultline.pg.health.polls"
                    + "?tag=datasource:dataSource&tag=outcome:ok"))
        .isGreaterThanOrEqualTo(1);
    assertThat(
            countWithin(app, "/actuator/metrics/faultline.pool.feedback.readings?tag=outcome:ok"))
        .isGreaterThanOrEqualTo(1);

    // A recording started with jcmd after the findings were raised has none of their changes, and
    // still shows them: the starter puts the active ones in each chunk once Flight Recorder runs.
    Path recording = Files.createTempFile("boot-late", ".jfr");
    try {
      String pid = Long.toString(app.pid());
      app.runJdkTool("jcmd", pid, "JFR.start", "name=late");
      // The starter looks whether Flight Recorder has started at intervals that grow to
      // CHECK_AT_MOST_EVERY; from its look on, every chunk's end carries the findings, and a dump
      // of the running recording ends one. Dumped until they are there, a look or two at most.
      String events = "";
      long deadline =
          System.nanoTime() + 3 * ActiveFindingsInRecordings.CHECK_AT_MOST_EVERY.toNanos();
      while (!events.contains("JOOQ_SAVEPOINT_AFTER_ROW_LOCK") && System.nanoTime() < deadline) {
        Thread.sleep(1_000);
        app.runJdkTool("jcmd", pid, "JFR.dump", "name=late", "filename=" + recording);
        events =
            app.runJdkTool(
                "jfr", "print", "--events", "io.faultline.ActiveFinding", recording.toString());
      }
      app.runJdkTool("jcmd", pid, "JFR.stop", "name=late");
      assertThat(events)
          .contains("io.faultline.ActiveFinding", "\"JOOQ_SAVEPOINT_AFTER_ROW_LOCK\"");
    } finally {
      Files.deleteIfExists(recording);
    }
  }

  @Test
  void nestingFlattenJoinsTheOuterTransactionWithoutASavepoint(PostgresServer postgres)
      throws Exception {
    try (BootApp app = BootApp.start(jar(), postgres, "--faultline.jooq.nesting=flatten")) {
      String out = app.awaitLine("scenes done", START);
      assertThat(out)
          .contains("provider: GuardedTransactionProvider")
          .contains("savepointsCreated=0", "nestedFlattened=1")
          .doesNotContain("finding JOOQ_SAVEPOINT_AFTER_ROW_LOCK");
      assertThat(app.get("/actuator/faultline")).doesNotContain("JOOQ_SAVEPOINT_AFTER_ROW_LOCK");
    }
  }

  @Test
  void guardFalseLeavesBootsProviderAlone(PostgresServer postgres) throws Exception {
    try (BootApp app = BootApp.start(jar(), postgres, "--faultline.jooq.guard=false")) {
      String out = app.awaitLine("scenes done", START);
      assertThat(out)
          .contains("provider: SpringTransactionProvider")
          .contains("jooq.guard is off")
          .doesNotContain("finding JOOQ_");
    }
  }

  @Test
  void withoutJooqTheStarterStartsAndGuardsNothing(PostgresServer postgres) throws Exception {
    Path unpacked = Files.createTempDirectory("boot3-app");
    try {
      unzip(TestPaths.springBoot3AppJar(), unpacked);
      List<String> classPath = new ArrayList<>();
      classPath.add(unpacked.resolve("BOOT-INF/classes").toString());
      try (Stream<Path> libs = Files.list(unpacked.resolve("BOOT-INF/lib"))) {
        libs.filter(p -> !p.getFileName().toString().startsWith("jooq-"))
            .sorted()
            .forEach(p -> classPath.add(p.toString()));
      }
      try (BootApp app =
          BootApp.start(
              List.of(
                  "-cp",
                  String.join(File.pathSeparator, classPath),
                  "io.faultline.it.bootapp.NoJooqApp"),
              postgres)) {
        assertThat(app.awaitExit(START)).as("exit code").isZero();
        assertThat(app.output())
            .contains("jooq on class path: false", "started without jOOQ")
            .contains("nested transaction without jOOQ: 1")
            .contains("bean: faultlineFindings")
            .doesNotContain("bean: faultlineTransactionProviderGuarding")
            .doesNotContain("bean: faultlineTransactionManagerListening")
            .doesNotContain("bean: faultlineExecuteListenerProvider");
      }
    } finally {
      try (Stream<Path> files = Files.walk(unpacked)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** A counter's COUNT once it is above zero, or after 20 s. */
  private static double countWithin(BootApp app, String path) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    double count = count(app.get(path));
    while (count < 1 && System.nanoTime() < deadline) {
      Thread.sleep(200);
      count = count(app.get(path));
    }
    return count;
  }

  /** The COUNT of a counter from Actuator's metrics JSON. */
  private static double count(String json) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\"statistic\":\"COUNT\",\"value\":([0-9.E]+)")
            .matcher(json);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }

  private static List<String> jar() throws IOException {
    return List.of("-jar", TestPaths.springBoot3AppJar().toString());
  }

  private static void unzip(Path jar, Path into) throws IOException {
    try (InputStream in = Files.newInputStream(jar);
        ZipInputStream zip = new ZipInputStream(in)) {
      for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
        Path target = into.resolve(entry.getName()).normalize();
        if (!target.startsWith(into)) {
          throw new IOException("entry outside the folder: " + entry.getName());
        }
        if (entry.isDirectory()) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(zip, target);
        }
      }
    }
  }
}
