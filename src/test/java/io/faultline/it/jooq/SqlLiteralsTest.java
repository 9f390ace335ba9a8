package io.faultline.it.jooq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import com.zaxxer.hikari.HikariDataSource;
import io.faultline.core.finding.Finding;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.jooq.GuardedTransactionProvider;
import io.faultline.jooq.JooqFindingTypes;
import io.faultline.jooq.NestingPolicy;
import io.faultline.jooq.SqlLiterals;
import io.faultline.jooq.timeout.StatementTimeoutException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.conf.Settings;
import org.jooq.conf.StatementType;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the guard shows of a statement on a real PostgreSQL: the Channel.io PostgreSQL outage's flow
 * locking the row by a literal e-mail address, and a statement cancelled by its statement timeout,
 * with jOOQ inlining the values ({@link StatementType#STATIC_STATEMENT}) and with bind values. By
 * default no literal reaches the finding or the exception; {@code jooq.sql.literals=keep} shows
 * them.
 */
@ExtendWith(RealServers.class)
class SqlLiteralsTest {

  private static final String EMAIL = "alice@example.com";
  private static final Settings INLINED =
      new Settings().withStatementType(StatementType.STATIC_STATEMENT);

  private static String setUp(PostgresServer postgres) throws SQLException {
    String table = Guarded.table("account");
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE "
              + table
              + " (id int PRIMARY KEY, email text NOT NULL, balance int NOT NULL)");
      s.execute("INSERT INTO " + table + " VALUES (1, '" + EMAIL + "', 100)");
    }
    return table;
  }

  /** Locks the row by its e-mail address, then updates it in a nested transaction. */
  private static void lockThenNestedUpdate(DSLContext dsl, String name) {
    Table<Record> table = table(name(name));
    Field<String> email = field(name("email"), String.class);
    Field<Integer> balance = field(name("balance"), Integer.class);
    dsl.transaction(
        outer -> {
          DSL.using(outer).selectFrom(table).where(email.eq(EMAIL)).forUpdate().fetch();
          DSL.using(outer)
              .transaction(
                  inner ->
                      DSL.using(inner)
                          .update(table)
                          .set(balance, balance.minus(10))
                          .where(email.eq(EMAIL))
                          .execute());
        });
  }

  private static Finding rowLockFinding(
      PostgresServer postgres,
      UnaryOperator<GuardedTransactionProvider.Builder> settings,
      Settings rendering)
      throws SQLException {
    String table = setUp(postgres);
    Guarded guarded =
        Guarded.on(postgres.dataSource(), b -> settings.apply(b.nesting(NestingPolicy.WARN)));
    DSLContext dsl =
        rendering == null ? guarded.dsl : DSL.using(guarded.dsl.configuration().derive(rendering));

    lockThenNestedUpdate(dsl, table);

    assertThat(balance(postgres, table)).isEqualTo(90);
    assertThat(guarded.provider.guard().stats().savepointsCreated()).isEqualTo(1);
    Finding finding =
        guarded.findings.active().stream()
            .filter(f -> f.id().equals(JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK.id()))
            .findFirst()
            .orElseThrow();
    System.out.println(
        "[faultline-it] sql literals: "
            + (rendering == null ? "bind values" : "inlined")
            + ", "
            + guarded.provider.guard().sqlLiterals()
            + ": lockingStatement = "
            + finding.evidence().get("lockingStatement"));
    return finding;
  }

  private static int balance(PostgresServer postgres, String table) throws SQLException {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT balance FROM " + table + " WHERE id = 1")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static void assertShapeWithoutLiteral(Finding finding) {
    String statement = String.valueOf(finding.evidence().get("lockingStatement"));
    assertThat(statement)
        .startsWith("select ")
        .contains("\"email\" = ?")
        .endsWith(" for update")
        .doesNotContain(EMAIL)
        .doesNotContain("alice");
    assertThat(finding.message()).endsWith("locked rows with: " + statement);
    assertThat(finding.toString()).doesNotContain("alice");
  }

  @Test
  void anInlinedEmailInTheLockingStatementIsMasked(PostgresServer postgres) throws SQLException {
    assertShapeWithoutLiteral(rowLockFinding(postgres, b -> b, INLINED));
  }

  @Test
  void withBindValuesTheShapeIsTheSame(PostgresServer postgres) throws SQLException {
    assertShapeWithoutLiteral(rowLockFinding(postgres, b -> b, null));
  }

  @Test
  void keepShowsTheInlinedEmail(PostgresServer postgres) throws SQLException {
    Finding finding = rowLockFinding(postgres, b -> b.sqlLiterals(SqlLiterals.KEEP), INLINED);
    assertThat(String.valueOf(finding.evidence().get("lockingStatement")))
        .contains("\"email\" = '" + EMAIL + "'")
        .endsWith(" for update");
    assertThat(finding.message()).contains(EMAIL);
  }

  /** A statement with an inlined e-mail address, cancelled after 1 s by its statement timeout. */
  private static StatementTimeoutException timedOut(PostgresServer postgres, SqlLiterals literals)
      throws SQLException {
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(1))) {
      Guarded guarded =
          Guarded.on(pool, b -> b.statementTimeout(Duration.ofSeconds(1)).sqlLiterals(literals));
      DSLContext dsl = DSL.using(guarded.dsl.configuration().derive(INLINED));
      Throwable thrown =
          catchThrowable(
              () ->
                  dsl.transaction(
                      c ->
                          DSL.using(c)
                              .select(
                                  field("pg_sleep({0})", Object.class, DSL.val(30)),
                                  DSL.val(EMAIL).as("email"))
                              .fetch()));
      assertThat(thrown).isInstanceOf(StatementTimeoutException.class);
      assertThat(guarded.provider.guard().stats().statementTimeouts()).isEqualTo(1);
      System.out.println("[faultline-it] sql literals, " + literals + ": " + thrown.getMessage());
      return (StatementTimeoutException) thrown;
    }
  }

  private static List<String> messagesOfTheChain(Throwable t) {
    List<String> messages = new ArrayList<>();
    for (Throwable c = t; c != null; c = c.getCause()) {
      messages.add(c.getClass().getName() + ": " + c.getMessage());
    }
    return messages;
  }

  @Test
  void aTimedOutStatementsInlinedEmailIsMaskedInTheExceptionAndItsCauses(PostgresServer postgres)
      throws SQLException {
    StatementTimeoutException e = timedOut(postgres, SqlLiterals.MASK);
    assertThat(e.getMessage())
        .contains("statement_timeout of 1000 ms")
        .contains("select pg_sleep(?), ?")
        .contains("\"email\"")
        .doesNotContain("alice")
        .doesNotContain("30");
    assertThat(messagesOfTheChain(e)).hasSizeGreaterThan(1).noneMatch(m -> m.contains("alice"));
    // The driver's exception is still there: its SQL state says what happened.
    assertThat(e.sqlState()).isEqualTo("57014");
  }

  @Test
  void keepShowsTheTimedOutStatementsLiterals(PostgresServer postgres) throws SQLException {
    StatementTimeoutException e = timedOut(postgres, SqlLiterals.KEEP);
    assertThat(e.getMessage()).contains("pg_sleep(30)").contains("'" + EMAIL + "'");
  }
}
