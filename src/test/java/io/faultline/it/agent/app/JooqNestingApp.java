package io.faultline.it.agent.app;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * A plain jOOQ + HikariCP application with no Faultline code: it runs the Channel.io PostgreSQL
 * outage's flow once (lock a row by its e-mail address with {@code SELECT ... FOR UPDATE}, then
 * update it in a nested {@code dsl.transaction}), prints what happened, then {@code ready} and
 * waits for a line on standard input.
 *
 * <p>Arguments: JDBC URL, user, password, table.
 */
public final class JooqNestingApp {

  private JooqNestingApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    // Its first transaction is what the test is about: not before the agent has woven jOOQ.
    AgentReady.await();
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(args[0]);
    config.setUsername(args[1]);
    config.setPassword(args[2]);
    config.setMaximumPoolSize(2);
    String table = args[3];
    try (HikariDataSource pool = new HikariDataSource(config)) {
      DSLContext dsl = DSL.using(pool, SQLDialect.POSTGRES);
      dsl.execute("DROP TABLE IF EXISTS " + table);
      dsl.execute(
          "CREATE TABLE "
              + table
              + " (id int PRIMARY KEY, email text NOT NULL, balance int NOT NULL)");
      dsl.execute("INSERT INTO " + table + " VALUES (1, 'alice@example.com', 100)");
      try {
        lockThenNestedUpdate(dsl, table);
        System.out.println("outer committed");
      } catch (RuntimeException e) {
        System.out.println("outer failed: " + e.getClass().getName() + ": " + e.getMessage());
      }
      // read at run time: the constant would be inlined from the jOOQ this was compiled against
      System.out.println("jooq " + org.jooq.Constants.class.getField("VERSION").get(null));
      System.out.println("ready");
      System.out.flush();
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    }
    System.out.println("bye");
  }

  private static void lockThenNestedUpdate(DSLContext dsl, String table) {
    dsl.transaction(
        outer -> {
          // By a literal e-mail address: the agent must not show it.
          outer
              .dsl()
              .fetch("SELECT * FROM " + table + " WHERE email = 'alice@example.com' FOR UPDATE");
          try {
            outer
                .dsl()
                .transaction(
                    inner ->
                        inner
                            .dsl()
                            .execute(
                                "UPDATE " + table + " SET balance = balance - 10 WHERE id = 1"));
          } catch (RuntimeException e) {
            System.out.println("inner failed: " + e.getClass().getName());
            throw e;
          }
        });
  }
}
