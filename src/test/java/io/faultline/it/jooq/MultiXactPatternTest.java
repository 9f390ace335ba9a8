package io.faultline.it.jooq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.faultline.core.finding.Finding;
import io.faultline.it.servers.MultiXactProbe;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.jooq.JooqFindingTypes;
import io.faultline.jooq.NestedTransactionException;
import io.faultline.jooq.NestingPolicy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Channel.io PostgreSQL outage's pattern on a real PostgreSQL: {@code SELECT ... FOR UPDATE},
 * then a nested jOOQ transaction that updates the same row. With savepoints the old tuple's xmax
 * becomes a MultiXact of the locker and the updating subtransaction (found with the built-in
 * pg_get_multixact_members, {@link MultiXactProbe}, so this runs on the embedded server too);
 * flattened it does not; refused, the row is untouched.
 */
@ExtendWith(RealServers.class)
class MultiXactPatternTest {

  private static String setUp(PostgresServer postgres) throws SQLException {
    String table = Guarded.table("account");
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, balance int NOT NULL)");
      s.execute("INSERT INTO " + table + " VALUES (1, 100)");
    }
    return table;
  }

  /** Runs the outage's flow: lock the row, then update it in a nested transaction. */
  private static void lockThenNestedUpdate(Guarded guarded, String table) {
    guarded.dsl.transaction(
        outer -> {
          DSL.using(outer).fetch("SELECT * FROM " + table + " WHERE id = 1 FOR UPDATE");
          DSL.using(outer)
              .transaction(
                  inner ->
                      DSL.using(inner)
                          .execute("UPDATE " + table + " SET balance = balance - 10 WHERE id = 1"));
        });
  }

  private static int balance(PostgresServer postgres, String table) throws SQLException {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT balance FROM " + table + " WHERE id = 1")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Test
  void withSavepointsTheRowGetsAMultiXactAndTheFindingIsRaised(PostgresServer postgres)
      throws SQLException {
    savepointLeavesAMultiXact(postgres);
  }

  @Test
  void flattenedThereIsNoMultiXact(PostgresServer postgres) throws SQLException {
    flattenedLeavesNone(postgres);
  }

  /**
   * Under {@code WARN} (jOOQ's savepoint): one MultiXact of the row's locker and updater, one
   * savepoint counted, both findings raised. Shared with the version matrix ({@link
   * PostgresMajorsMatrixTest}); returns what was checked.
   */
  static String savepointLeavesAMultiXact(PostgresServer postgres) throws SQLException {
    String table = setUp(postgres);
    Guarded guarded = Guarded.on(postgres.dataSource(), b -> b.nesting(NestingPolicy.WARN));

    MultiXactProbe probe = MultiXactProbe.start(postgres);
    lockThenNestedUpdate(guarded, table);

    List<String> multis = probe.updatingMultiXacts(table);
    System.out.println(
        "[faultline-it] MultiXact check, default provider (savepoint): MultiXacts of"
            + " the row's locker and updater: "
            + multis
            + ", balance = "
            + balance(postgres, table));
    assertThat(multis).hasSize(1);
    assertThat(balance(postgres, table)).isEqualTo(90);
    assertThat(guarded.provider.guard().stats().savepointsCreated()).isEqualTo(1);
    assertThat(guarded.findings.active())
        .extracting(Finding::id)
        .contains(
            JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK.id(),
            JooqFindingTypes.NESTED_TRANSACTION.id());
    return "savepoint: 1 MultiXact of locker and updater, 1 savepoint counted,"
        + " JOOQ_SAVEPOINT_AFTER_ROW_LOCK and JOOQ_NESTED_TRANSACTION raised";
  }

  /**
   * Under {@code FLATTEN}: no MultiXact, no savepoint, no finding, the update applied once. Shared
   * with the version matrix; returns what was checked.
   */
  static String flattenedLeavesNone(PostgresServer postgres) throws SQLException {
    String table = setUp(postgres);
    Guarded guarded = Guarded.on(postgres.dataSource(), b -> b.nesting(NestingPolicy.FLATTEN));

    MultiXactProbe probe = MultiXactProbe.start(postgres);
    lockThenNestedUpdate(guarded, table);

    List<String> multis = probe.updatingMultiXacts(table);
    System.out.println(
        "[faultline-it] MultiXact check, FLATTEN: MultiXacts of the row's locker and updater: "
            + multis
            + ", balance = "
            + balance(postgres, table));
    assertThat(multis).isEmpty();
    assertThat(balance(postgres, table)).isEqualTo(90);
    assertThat(guarded.provider.guard().stats().savepointsCreated()).isZero();
    assertThat(guarded.findings.active()).isEmpty();
    return "flatten: no MultiXact, no savepoint, no finding";
  }

  @Test
  void refusedTheDatabaseIsUntouched(PostgresServer postgres) throws SQLException {
    String table = setUp(postgres);
    Guarded guarded = Guarded.on(postgres.dataSource(), b -> b.nesting(NestingPolicy.FAIL));

    MultiXactProbe probe = MultiXactProbe.start(postgres);
    assertThatThrownBy(() -> lockThenNestedUpdate(guarded, table))
        .isInstanceOf(NestedTransactionException.class)
        .hasMessageContaining(MultiXactPatternTest.class.getName());

    List<String> multis = probe.updatingMultiXacts(table);
    System.out.println(
        "[faultline-it] MultiXact check, FAIL: MultiXacts of the row's locker and updater: "
            + multis
            + ", balance = "
            + balance(postgres, table));
    assertThat(multis).isEmpty();
    assertThat(balance(postgres, table)).isEqualTo(100);
    assertThat(guarded.provider.guard().stats().rolledBack()).isEqualTo(1);
  }
}
