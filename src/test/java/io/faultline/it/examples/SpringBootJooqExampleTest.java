package io.faultline.it.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.it.servers.TestPaths;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The spring-boot-jooq example against a real PostgreSQL, in JVMs of their own (Spring stays off
 * the suite's class path): its executable jar, whose starter's {@code DSLContext} goes through the
 * guarded provider, which counts the savepoint made after a row lock, raises the findings and stops
 * the runaway query; and its own {@code @SpringBootTest} + {@code @FaultlineTest} tests, run as its
 * build would run them (the example's build skips them: they need a database), where the code as
 * written fails its tests for a savepoint after the row lock and the fixed code passes.
 */
@ExtendWith(RealServers.class)
class SpringBootJooqExampleTest {

  @Test
  void theStarterUsesTheGuardedProvider(PostgresServer postgres) throws Exception {
    Path jar = io.faultline.it.servers.TestPaths.springBootExampleJar();
    Path output = Files.createTempFile("spring-boot-jooq-example", ".log");
    try {
      Process app =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-jar",
                  jar.toString(),
                  "--spring.datasource.url=" + postgres.jdbcUrl(),
                  "--spring.datasource.username=" + postgres.username(),
                  "--spring.datasource.password=" + postgres.password())
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      boolean exited = app.waitFor(120, TimeUnit.SECONDS);
      if (!exited) {
        app.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      String out = Files.readString(output, StandardCharsets.UTF_8);
      System.out.print(out);
      assertThat(exited).as("the example exits by itself").isTrue();
      assertThat(app.exitValue()).as("exit code").isZero();
      assertThat(out)
          .contains("provider: GuardedTransactionProvider around SpringTransactionProvider")
          .contains("   committed")
          .contains("savepointsCreated=1", "savepointsReleased=1", "nestedAllowed=1")
          .contains("statementTimeouts=1")
          .contains("finding JOOQ_SAVEPOINT_AFTER_ROW_LOCK", "finding JOOQ_NESTED_TRANSACTION")
          .contains("meter faultline.jooq.savepoints[tag(outcome=created)] = 1.0")
          .contains("stopped: ");
    } finally {
      Files.deleteIfExists(output);
    }
  }

  @Test
  void theExamplesBootTestsFailOnTheSavepointAfterTheRowLockAndPassFixed(PostgresServer postgres)
      throws Exception {
    Path module = TestPaths.springBootExampleDir();
    Path target = module.resolve("target");
    Path dependencies = target.resolve("test-classpath.txt");
    assertThat(dependencies)
        .as("written by ./mvnw process-test-classes -pl examples/spring-boot-jooq -am")
        .exists();
    String classPath =
        String.join(
            File.pathSeparator,
            target.resolve("test-classes").toString(),
            target.resolve("classes").toString(),
            Files.readString(dependencies, StandardCharsets.UTF_8).trim());
    Path reports = TestPaths.workDir("spring-boot-jooq-tests");
    Path output = reports.resolve("console.log");
    Process tests =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                classPath,
                "-Dspring.datasource.url=" + postgres.jdbcUrl(),
                "-Dspring.datasource.username=" + postgres.username(),
                "-Dspring.datasource.password=" + postgres.password(),
                "org.junit.platform.console.ConsoleLauncher",
                "execute",
                "--disable-banner",
                "--disable-ansi-colors",
                "--details=tree",
                "--reports-dir=" + reports,
                "--select-class=io.faultline.examples.springboot.AccountsTest",
                "--select-class=io.faultline.examples.springboot.UnfixedAccountsTest")
            .directory(module.toFile())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    boolean exited = tests.waitFor(180, TimeUnit.SECONDS);
    if (!exited) {
      tests.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    String out = Files.readString(output, StandardCharsets.UTF_8);
    System.out.print(out);
    assertThat(exited).as("the tests end by themselves").isTrue();
    Path report = reports.resolve("TEST-junit-jupiter.xml");
    String xml = Files.readString(report, StandardCharsets.UTF_8);
    assertThat(tests.exitValue()).as("the console launcher's exit code").isZero();
    // AccountsTest's two tests pass on the fixed code under @MaxSavepoints(0), having seen its
    // transactions; UnfixedAccountsTest ran the unfixed case and found each of its three tests
    // failing for its reason (a savepoint after the row lock through jOOQ's and Spring's nesting,
    // the budget), printing their messages.
    assertThat(xml).contains("tests=\"3\"").contains("failures=\"0\"").contains("errors=\"0\"");
    assertThat(out)
        .contains("withdrawingFlattensTheNestedTransaction()")
        .contains("withdrawingRecordsTheLedgerEntryInTheSameTransaction()")
        .contains("at most 0 savepoint(s)")
        .contains("withdrawingInANestedDslTransaction() failed:")
        .contains("withdrawingAndRecordingInANestedTransactionalMethod() failed:")
        .contains("withdrawingWithinABudgetOfNoSavepoints() failed:")
        .contains(
            "JOOQ_SAVEPOINT_AFTER_ROW_LOCK [CRITICAL] about"
                + " io.faultline.examples.springboot.Accounts.withdrawAndRecord(Accounts.java:")
        .contains("@MaxSavepoints(0): a transaction begun at");
  }
}
