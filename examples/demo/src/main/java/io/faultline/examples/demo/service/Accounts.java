package io.faultline.examples.demo.service;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * The Channel.io PostgreSQL outage's side of the service: an {@code account} table used through
 * plain jOOQ over a HikariCP pool, the way the incident's service used it.
 */
final class Accounts implements AutoCloseable {

  private final HikariDataSource pool;
  private final DSLContext dsl;

  Accounts(String jdbcUrl, String user, String password) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setUsername(user);
    config.setPassword(password);
    config.setPoolName("demo");
    config.setMaximumPoolSize(4);
    this.pool = new HikariDataSource(config);
    this.dsl = DSL.using(pool, SQLDialect.POSTGRES);
    dsl.transaction(
        tx -> {
          tx.dsl().execute("DROP TABLE IF EXISTS account");
          tx.dsl().execute("CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)");
          tx.dsl().execute("INSERT INTO account SELECT g, 100 FROM generate_series(1, 10) g");
        });
  }

  /**
   * The Channel.io PostgreSQL outage's flow: {@code SELECT ... FOR UPDATE} in a transaction, then
   * the same row updated in a nested {@code dsl.transaction} — which jOOQ runs as a savepoint, so
   * PostgreSQL records the row's locker and updater in a MultiXact.
   */
  Map<String, Object> lockThenNestedUpdate() {
    dsl.transaction(
        outer -> {
          outer.dsl().fetch("SELECT * FROM account WHERE id = 1 FOR UPDATE");
          outer
              .dsl()
              .transaction(
                  inner ->
                      inner
                          .dsl()
                          .execute("UPDATE account SET balance = balance - 10 WHERE id = 1"));
        });
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("balance", dsl.fetchValue("SELECT balance FROM account WHERE id = 1"));
    result.put("multixact_tuples", multiXactTuples());
    return result;
  }

  /**
   * Tuples of the table whose xmax is a MultiXact (infomask bit HEAP_XMAX_IS_MULTI, read with
   * pageinspect); "unknown" when the server has no pageinspect.
   */
  private Object multiXactTuples() {
    try {
      dsl.execute("CREATE EXTENSION IF NOT EXISTS pageinspect");
      return dsl.fetchValue(
          "SELECT count(*) FROM heap_page_items(get_raw_page('account', 0))"
              + " WHERE (t_infomask & 4096) <> 0");
    } catch (RuntimeException e) {
      return "unknown";
    }
  }

  /**
   * A runaway query in a transaction: {@code pg_sleep} far longer than any request should take. The
   * agent's {@code jooq.statement-timeout} has PostgreSQL cancel it.
   */
  Map<String, Object> runawayQuery(int seconds) {
    long start = System.nanoTime();
    String outcome;
    try {
      dsl.transaction(tx -> tx.dsl().execute("SELECT pg_sleep(" + seconds + ")"));
      outcome = "completed";
    } catch (RuntimeException e) {
      outcome = "cancelled";
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("outcome", outcome);
    result.put("elapsed_ms", (System.nanoTime() - start) / 1_000_000);
    return result;
  }

  /**
   * A transaction left open (a batch job that read, then waits on something else) on a connection
   * of its own for {@code seconds}, then rolled back; runs in the background so the service answers
   * at once.
   */
  Map<String, Object> longTransaction(int seconds) throws Exception {
    Connection c = pool.getConnection();
    c.setAutoCommit(false);
    long txid;
    try (Statement s = c.createStatement()) {
      var rs = s.executeQuery("SELECT txid_current()");
      rs.next();
      txid = rs.getLong(1);
      s.execute("SELECT sum(balance) FROM account");
    }
    Thread holder =
        new Thread(
            () -> {
              try (c) {
                Thread.sleep(seconds * 1000L);
                c.rollback();
              } catch (Exception e) {
                System.err.println("long transaction: " + e);
              }
            },
            "long-transaction");
    holder.setDaemon(true);
    holder.start();
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("txid", txid);
    result.put("held_s", seconds);
    return result;
  }

  @Override
  public void close() {
    pool.close();
  }
}
