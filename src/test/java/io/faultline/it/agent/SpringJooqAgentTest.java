package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.agent.JooqAgentTest.Outcome;
import io.faultline.it.servers.MultiXactProbe;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The agent on Spring Boot's {@code SpringTransactionProvider}, in a child JVM whose application
 * ({@link io.faultline.it.agent.app.SpringJooqApp}) is Spring's {@code
 * DataSourceTransactionManager} + jOOQ + HikariCP wired as Boot wires them, with no Faultline code,
 * against the real PostgreSQL. Both generations of the provider: Boot 3 on Spring 6 ({@code
 * org.springframework.boot.autoconfigure.jooq}) and Boot 4 on Spring 7 ({@code
 * org.springframework.boot.jooq.autoconfigure}). Spring's provider begins every {@code
 * dsl.transaction} with {@code PROPAGATION_NESTED}, so the Channel.io PostgreSQL outage's nested
 * update after {@code SELECT ... FOR UPDATE} is a savepoint: the MultiXact pattern.
 */
@ExtendWith(RealServers.class)
class SpringJooqAgentTest {

  /** A Spring Boot generation: where its jars were copied, and its provider's class. */
  enum Boot {
    BOOT3("spring-boot3", "org.springframework.boot.autoconfigure.jooq.SpringTransactionProvider"),
    BOOT4("spring-boot4", "org.springframework.boot.jooq.autoconfigure.SpringTransactionProvider");

    final String folder;
    final String provider;

    Boot(String folder, String provider) {
      this.folder = folder;
      this.provider = provider;
    }

    /** Spring's and Boot's jars of this generation, copied by src/test/pom.xml. */
    List<Path> jars() throws IOException {
      Path dir = Path.of(System.getProperty("faultline.it.spring.dir", "target"), folder);
      assertThat(dir).as("copied by the build: run through ./mvnw").isDirectory();
      try (Stream<Path> files = Files.list(dir)) {
        return files.filter(f -> f.toString().endsWith(".jar")).sorted().toList();
      }
    }

    String table(String policy) {
      return "spring_" + name().toLowerCase() + "_" + policy;
    }
  }

  // Five child JVMs keep this class near a minute: the savepoint path (WARN) runs on Boot 3 here
  // and
  // on Boot 4 in the JDK 25 test; FLATTEN and FAIL do not reach Spring's savepoint code, so FLATTEN
  // runs on Boot 3 only, and FAIL on both (its rollback goes through each Spring's manager).

  @Test
  void warnCountsTheSavepointOfSpringsNestedPropagationAndFlagsTheRowLock(PostgresServer postgres)
      throws Exception {
    Boot boot = Boot.BOOT3;
    String table = boot.table("warn");
    MultiXactProbe probe = MultiXactProbe.start(postgres);
    Outcome o = run(postgres, Jdk.current(), JooqAgentTest.jooq319(), boot, "warn", table);
    assertThat(o.stdout()).contains("outer committed", "provider " + boot.provider);
    assertThat(o.savepointsCreated()).isEqualTo(1.0);
    assertThat(o.findings())
        .contains("JOOQ_NESTED_TRANSACTION", "JOOQ_SAVEPOINT_AFTER_ROW_LOCK")
        .contains("io.faultline.it.agent.app.SpringJooqApp.lambda$lockThenNestedUpdate");
    assertThat(o.page()).contains("Transaction nesting hotspots", "SpringJooqApp");
    assertThat(probe.updatingMultiXacts(table)).hasSize(1);
    assertThat(JooqAgentTest.balance(postgres, table)).isEqualTo(90);
  }

  @Test
  void flattenJoinsSpringsTransactionWithoutASavepointSoNoMultiXact(PostgresServer postgres)
      throws Exception {
    Boot boot = Boot.BOOT3;
    String table = boot.table("flatten");
    MultiXactProbe probe = MultiXactProbe.start(postgres);
    Outcome o = run(postgres, Jdk.current(), JooqAgentTest.jooq319(), boot, "flatten", table);
    assertThat(o.stdout()).contains("outer committed", "provider " + boot.provider);
    assertThat(o.savepointsCreated()).isZero();
    assertThat(o.findings()).doesNotContain("JOOQ_");
    assertThat(probe.updatingMultiXacts(table)).isEmpty();
    assertThat(JooqAgentTest.balance(postgres, table)).isEqualTo(90);
  }

  @ParameterizedTest
  @EnumSource(Boot.class)
  void failRefusesTheNestedTransactionBeforeSpringMakesASavepointAndTheOuterRollsBack(
      Boot boot, PostgresServer postgres) throws Exception {
    String table = boot.table("fail");
    MultiXactProbe probe = MultiXactProbe.start(postgres);
    Outcome o = run(postgres, Jdk.current(), JooqAgentTest.jooq319(), boot, "fail", table);
    assertThat(o.stdout())
        .contains("inner failed: io.faultline.shaded.jooq.NestedTransactionException")
        .contains("outer failed: io.faultline.shaded.jooq.NestedTransactionException")
        .contains("provider " + boot.provider);
    assertThat(o.savepointsCreated()).isZero();
    assertThat(o.findings()).contains("JOOQ_NESTED_TRANSACTION");
    assertThat(probe.updatingMultiXacts(table)).isEmpty();
    assertThat(JooqAgentTest.balance(postgres, table)).isEqualTo(100);
  }

  @Test
  void boot4OnJooq321AndJdk25CountsTheSavepointAndFlagsTheRowLock(PostgresServer postgres)
      throws Exception {
    Jdk jdk25 =
        Jdk.available().stream().filter(j -> j.name().equals("jdk25")).findFirst().orElse(null);
    Assumptions.assumeTrue(jdk25 != null, "JDK 25 is not installed");
    String table = "spring_boot4_321";
    MultiXactProbe probe = MultiXactProbe.start(postgres);
    Outcome o = run(postgres, jdk25, JooqAgentTest.jooq321(), Boot.BOOT4, "warn", table);
    assertThat(o.stdout())
        .contains("outer committed", "jooq 3.21", "spring 7.", "provider " + Boot.BOOT4.provider);
    assertThat(o.savepointsCreated()).isEqualTo(1.0);
    assertThat(o.findings())
        .contains("JOOQ_NESTED_TRANSACTION", "JOOQ_SAVEPOINT_AFTER_ROW_LOCK")
        .contains("io.faultline.it.agent.app.SpringJooqApp.lambda$lockThenNestedUpdate");
    assertThat(probe.updatingMultiXacts(table)).hasSize(1);
    assertThat(JooqAgentTest.balance(postgres, table)).isEqualTo(90);
  }

  private static Outcome run(
      PostgresServer postgres, Jdk jdk, List<Path> jooq, Boot boot, String nesting, String table)
      throws Exception {
    List<Path> classPath = new ArrayList<>(jooq);
    classPath.addAll(boot.jars());
    return JooqAgentTest.runApp(
        postgres,
        jdk,
        classPath,
        "io.faultline.it.agent.app.SpringJooqApp",
        nesting,
        table,
        boot.provider);
  }
}
