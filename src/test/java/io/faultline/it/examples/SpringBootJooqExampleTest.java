package io.faultline.it.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The spring-boot-jooq example, its executable jar run with {@code java -jar} against a real
 * PostgreSQL (Spring stays off the suite's class path): the starter's {@code DSLContext} goes
 * through the guarded provider, which counts the savepoint made after a row lock, raises the
 * findings and stops the runaway query.
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
}
