package io.faultline.it.jooq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.faultline.core.finding.Finding;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.it.servers.RequiresDocker;
import io.faultline.jooq.JooqFindingTypes;
import io.faultline.jooq.NestedTransactionException;
import io.faultline.jooq.NestingPolicy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Channel.io PostgreSQL outage's pattern on a real PostgreSQL: {@code SELECT ... FOR UPDATE},
 * then a nested jOOQ transaction that updates the same row. With savepoints the old tuple's xmax
 * becomes a MultiXact ({@code HEAP_XMAX_IS_MULTI}, 0x1000, seen with pageinspect); flattened it
 * does not; refused, the row is untouched.
 */
@ExtendWith(RealServers.class)
@RequiresDocker("pageinspect/pgrowlocks come from the project's image")
class MultiXactPatternTest {

  private static String setUp(PostgresServer postgres) throws SQLException {
    String table = Guarded.table("account");
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE EXTENSION IF NOT EXISTS pageinspect");
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

  private static int multiXactTuples(PostgresServer postgres, String table) throws SQLException {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM heap_page_items(get_raw_page('"
                    + table
                    + "', 0)) WHERE (t_infomask & 4096) <> 0")) {
      rs.next();
      return rs.getInt(1);
    }
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
    String table = setUp(postgres);
    Guarded guarded = Guarded.on(postgres.dataSource(), b -> b.nesting(NestingPolicy.WARN));

    lockThenNestedUpdate(guarded, table);

    int multis = multiXactTuples(postgres, table);
    System.out.println(
        "[faultline-it] MultiXact check, default provider (savepoint): tuples with"
            + " HEAP_XMAX_IS_MULTI = "
            + multis
            + ", balance = "
            + balance(postgres, table));
    assertThat(multis).isPositive();
    assertThat(balance(postgres, table)).isEqualTo(90);
    assertThat(guarded.provider.guard().stats().savepointsCreated()).isEqualTo(1);
    assertThat(guarded.findings.active())
        .extracting(Finding::id)
        .contains(
            JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK.id(),
            JooqFindingTypes.NESTED_TRANSACTION.id());
  }

  @Test
  void flattenedThereIsNoMultiXact(PostgresServer postgres) throws SQLException {
    String table = setUp(postgres);
    Guarded guarded = Guarded.on(postgres.dataSource(), b -> b.nesting(NestingPolicy.FLATTEN));

    lockThenNestedUpdate(guarded, table);

    int multis = multiXactTuples(postgres, table);
    System.out.println(
        "[faultline-it] MultiXact check, FLATTEN: tuples with HEAP_XMAX_IS_MULTI = "
            + multis
            + ", balance = "
            + balance(postgres, table));
    assertThat(multis).isZero();
    assertThat(balance(postgres, table)).isEqualTo(90);
    assertThat(guarded.provider.guard().stats().savepointsCreated()).isZero();
    assertThat(guarded.findings.active()).isEmpty();
  }

  @Test
  void refusedTheDatabaseIsUntouched(PostgresServer postgres) throws SQLException {
    String table = setUp(postgres);
    Guarded guarded = Guarded.on(postgres.dataSource(), b -> b.nesting(NestingPolicy.FAIL));

    assertThatThrownBy(() -> lockThenNestedUpdate(guarded, table))
        .isInstanceOf(NestedTransactionException.class)
        .hasMessageContaining(MultiXactPatternTest.class.getName());

    int multis = multiXactTuples(postgres, table);
    System.out.println(
        "[faultline-it] MultiXact check, FAIL: tuples with HEAP_XMAX_IS_MULTI = "
            + multis
            + ", balance = "
            + balance(postgres, table));
    assertThat(multis).isZero();
    assertThat(balance(postgres, table)).isEqualTo(100);
    assertThat(guarded.provider.guard().stats().rolledBack()).isEqualTo(1);
  }
}
