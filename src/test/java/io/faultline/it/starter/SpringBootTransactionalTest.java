package io.faultline.it.starter;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.agent.Jdk;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.it.servers.TestPaths;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code @Transactional} nesting seen by faultline-spring-boot-starter alone, through Spring's
 * transaction execution listeners: the Boot 3.5 and Boot 4 applications of {@link
 * SpringBootStarterTest}, from their executable jars, against a real PostgreSQL. The Channel.io
 * outage's flow, written as a {@code @Transactional} method that locks a row and calls a {@code
 * propagation = NESTED} method that writes it, makes PostgreSQL record a MultiXact (read from a
 * second connection while the transaction is open) and raises the guard's findings and savepoint
 * counts, which Actuator shows.
 */
@ExtendWith(RealServers.class)
@Tag(BootApp.TAG)
class SpringBootTransactionalTest {

  private static final Duration START = Duration.ofSeconds(120);
  private static final String LOCK_THEN_SAVEPOINT = "xmax is a MultiXact of forupd+nokeyupd";

  @Test
  void boot35NestedTransactionalMethodRaisesTheFindingsThroughTheStarter(PostgresServer postgres)
      throws Exception {
    try (BootApp app = BootApp.start(boot3(), postgres, "--scenes=transactional")) {
      nestedTransactionalRaisesAndShows(app);
    }
  }

  @Test
  void boot4OnJdk25NestedTransactionalMethodRaisesTheFindingsThroughTheStarter(
      PostgresServer postgres) throws Exception {
    Jdk jdk25 = jdk25();
    try (BootApp app =
        BootApp.start(
            jdk25.java(),
            List.of("-jar", TestPaths.springBoot4AppJar().toString()),
            postgres,
            "--scenes=transactional")) {
      nestedTransactionalRaisesAndShows(app);
    }
  }

  private static void nestedTransactionalRaisesAndShows(BootApp app) throws Exception {
    String out = app.awaitLine("scenes done", START);
    assertThat(out)
        .contains("scene transactional: done")
        .as("PostgreSQL made the row's xmax a MultiXact: the incident's mechanism")
        .contains("transactional row: " + LOCK_THEN_SAVEPOINT)
        .contains("savepointsCreated=1", "nestedAllowed=1", "committed=1")
        .contains(
            "finding JOOQ_SAVEPOINT_AFTER_ROW_LOCK at"
                + " io.faultline.it.bootapp.Accounts.debitThroughNestedMethod(Accounts.java:")
        .contains(
            "finding JOOQ_NESTED_TRANSACTION at"
                + " io.faultline.it.bootapp.Accounts.debitThroughNestedMethod(Accounts.java:");

    String findings = app.get("/actuator/faultline");
    assertThat(findings)
        .contains("\"id\":\"JOOQ_SAVEPOINT_AFTER_ROW_LOCK\"", "\"severity\":\"CRITICAL\"")
        .contains("\"lockingStatement\":\"SELECT * FROM boot_starter_account WHERE id = ? FOR")
        .as("the outer transaction's call site: where the @Transactional method was called")
        .contains("\"outerCallSite\":\"io.faultline.it.bootapp.StarterApp.")
        .contains("\"begunBy\":\"transaction manager\"");

    String health = app.get("/actuator/health");
    assertThat(health).doesNotContain("\"status\":\"DOWN\"");
    assertThat(health.substring(health.indexOf("\"faultline\":{")))
        .contains("\"status\":\"UP\"")
        .contains("\"id\":\"JOOQ_SAVEPOINT_AFTER_ROW_LOCK\",\"severity\":\"CRITICAL\"");

    assertThat(count(app.get("/actuator/metrics/faultline.jooq.savepoints?tag=outcome:created")))
        .isEqualTo(1.0);
    assertThat(count(app.get("/actuator/metrics/faultline.jooq.savepoints?tag=outcome:released")))
        .isEqualTo(1.0);
    assertThat(
            count(app.get("/actuator/metrics/faultline.jooq.transactions?tag=outcome:committed")))
        .isEqualTo(1.0);
  }

  @Test
  void aJooqTransactionInsideATransactionalMethodIsOneSavepointCountedOnce(PostgresServer postgres)
      throws Exception {
    try (BootApp app = BootApp.start(boot3(), postgres, "--scenes=mixed")) {
      String out = app.awaitLine("scenes done", START);
      assertThat(out)
          .contains("scene mixed: done", "mixed row: " + LOCK_THEN_SAVEPOINT)
          .contains("savepointsCreated=1", "nestedAllowed=1", "committed=1")
          .contains(
              "finding JOOQ_SAVEPOINT_AFTER_ROW_LOCK at"
                  + " io.faultline.it.bootapp.Accounts.debitThroughJooqTransaction(Accounts.java:");
      assertThat(count(app.get("/actuator/metrics/faultline.jooq.savepoints?tag=outcome:created")))
          .isEqualTo(1.0);
    }
  }

  @Test
  void flattenJoinsAJooqTransactionButCannotStopSpringsOwnSavepoint(PostgresServer postgres)
      throws Exception {
    try (BootApp app =
        BootApp.start(
            boot3(),
            postgres,
            "--scenes=mixed,transactional",
            "--faultline.jooq.nesting=flatten")) {
      String out = app.awaitLine("scenes done", START);
      // dsl.transaction inside @Transactional: the guard keeps it from Spring, so no savepoint
      // and no MultiXact.
      assertThat(out)
          .contains("scene mixed: done", "mixed row: xmax is the transaction's own id")
          .containsPattern("guard stats after mixed: .*savepointsCreated=0.*nestedFlattened=1");
      // @Transactional(NESTED): Spring makes the savepoint itself; reported, not flattened.
      assertThat(out)
          .contains("scene transactional: done", "transactional row: " + LOCK_THEN_SAVEPOINT)
          .containsPattern("guard stats after transactional: .*savepointsCreated=1")
          .contains(
              "finding JOOQ_SAVEPOINT_AFTER_ROW_LOCK at io.faultline.it.bootapp.Accounts.debitThroughNestedMethod")
          .doesNotContain(
              "finding JOOQ_SAVEPOINT_AFTER_ROW_LOCK at io.faultline.it.bootapp.Accounts.debitThroughJooqTransaction")
          .contains("cannot join it to the outer transaction");
      assertThat(out).contains("balance: 98");
    }
  }

  @Test
  void aFailedFlattenedJooqTransactionRollsBackSpringsTransaction(PostgresServer postgres)
      throws Exception {
    try (BootApp app = BootApp.start(boot3(), postgres, "--scenes=mixed-failing")) {
      String out = app.awaitLine("scenes done", START);
      assertThat(out)
          .as("with a savepoint the failed level is undone and the rest commits")
          .contains("inner failure caught", "scene mixed-failing: done")
          .contains("savepointsRolledBack=1", "committed=1", "balance: 100");
    }
    try (BootApp app =
        BootApp.start(
            boot3(), postgres, "--scenes=mixed-failing", "--faultline.jooq.nesting=flatten")) {
      String out = app.awaitLine("scenes done", START);
      assertThat(out)
          .as("flattened, the failed level's write is in Spring's transaction: it must not commit")
          .contains("inner failure caught")
          .contains("scene mixed-failing: failed: FlattenedRollbackException")
          .contains("nestedFlattened=1", "rolledBack=1", "balance: 100");
    }
  }

  @Test
  void failRefusesTheNestedMethodBeforeSpringMakesTheSavepoint(PostgresServer postgres)
      throws Exception {
    try (BootApp app =
        BootApp.start(
            boot3(), postgres, "--scenes=transactional", "--faultline.jooq.nesting=fail")) {
      String out = app.awaitLine("scenes done", START);
      assertThat(out)
          .contains("scene transactional: failed: NestedTransactionException")
          .contains("savepointsCreated=0", "nestedRefused=1", "rolledBack=1")
          .as("the outer transaction rolled back: nothing was debited")
          .contains("balance: 100")
          .doesNotContain("finding JOOQ_SAVEPOINT_AFTER_ROW_LOCK");
    }
  }

  @Test
  void downOnNamedFindingsTurnsTheHealthContributorDown(PostgresServer postgres) throws Exception {
    try (BootApp app =
        BootApp.start(
            boot3(),
            postgres,
            "--scenes=transactional",
            "--faultline.health.down-on=JOOQ_SUBTRANSACTION_OVERFLOW, joq_typo,"
                + "JOOQ_SAVEPOINT_AFTER_ROW_LOCK")) {
      String out = app.awaitLine("scenes done", START);
      assertThat(out).contains("health.down-on names findings no module declares: [JOQ_TYPO]");
      String health = app.get("/actuator/health", 503);
      assertThat(health).contains("\"status\":\"DOWN\"");
      assertThat(health.substring(health.indexOf("\"faultline\":{")))
          .contains("\"status\":\"DOWN\"")
          .contains("\"downBecause\":[\"JOOQ_SAVEPOINT_AFTER_ROW_LOCK io.faultline.it.bootapp.");
    }
  }

  @Test
  void downOnFindingsThatAreNotActiveKeepsItUp(PostgresServer postgres) throws Exception {
    try (BootApp app =
        BootApp.start(
            boot3(),
            postgres,
            "--scenes=transactional",
            "--faultline.health.down-on=JOOQ_SUBTRANSACTION_OVERFLOW")) {
      app.awaitLine("scenes done", START);
      String health = app.get("/actuator/health");
      assertThat(health.substring(health.indexOf("\"faultline\":{")))
          .contains("\"status\":\"UP\"", "\"downOn\":[\"JOOQ_SUBTRANSACTION_OVERFLOW\"]");
    }
  }

  private static List<String> boot3() throws java.io.IOException {
    return List.of("-jar", TestPaths.springBoot3AppJar().toString());
  }

  private static Jdk jdk25() {
    Jdk jdk25 =
        Jdk.available().stream().filter(j -> j.name().equals("jdk25")).findFirst().orElseThrow();
    jdk25.assumeInstalled();
    return jdk25;
  }

  /** The COUNT of a counter from Actuator's metrics JSON. */
  private static double count(String json) {
    Matcher m = Pattern.compile("\"statistic\":\"COUNT\",\"value\":([0-9.E]+)").matcher(json);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }
}
