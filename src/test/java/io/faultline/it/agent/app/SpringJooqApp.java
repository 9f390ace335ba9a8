package io.faultline.it.agent.app;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.TransactionProvider;
import org.jooq.impl.DSL;
import org.jooq.impl.DataSourceConnectionProvider;
import org.jooq.impl.DefaultConfiguration;
import org.springframework.core.SpringVersion;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * A Spring + jOOQ application with no Faultline code, wired the way Spring Boot's jOOQ
 * auto-configuration wires it: a {@link DataSourceTransactionManager} on a HikariCP pool, jOOQ's
 * connections through a {@link TransactionAwareDataSourceProxy}, and Spring Boot's {@code
 * SpringTransactionProvider} (which begins every {@code dsl.transaction} with {@code
 * PROPAGATION_NESTED}: a nested one is a savepoint). It runs the Channel.io PostgreSQL outage's
 * flow once (lock a row with {@code SELECT ... FOR UPDATE}, then update it in a nested {@code
 * dsl.transaction}), prints what happened, then {@code ready} and waits for a line on standard
 * input.
 *
 * <p>Arguments: JDBC URL, user, password, table, the provider's class name. The provider is named
 * rather than imported so one application runs on Spring Boot 3 ({@code
 * org.springframework.boot.autoconfigure.jooq}) and Spring Boot 4 ({@code
 * org.springframework.boot.jooq.autoconfigure}) alike.
 */
public final class SpringJooqApp {

  private SpringJooqApp() {}

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
      PlatformTransactionManager transactions = new DataSourceTransactionManager(pool);
      TransactionProvider provider =
          (TransactionProvider)
              Class.forName(args[4])
                  .getConstructor(PlatformTransactionManager.class)
                  .newInstance(transactions);
      DSLContext dsl =
          DSL.using(
              new DefaultConfiguration()
                  .set(SQLDialect.POSTGRES)
                  .set(new DataSourceConnectionProvider(new TransactionAwareDataSourceProxy(pool)))
                  .set(provider));
      dsl.execute("DROP TABLE IF EXISTS " + table);
      dsl.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, balance int NOT NULL)");
      dsl.execute("INSERT INTO " + table + " VALUES (1, 100)");
      try {
        lockThenNestedUpdate(dsl, table);
        System.out.println("outer committed");
      } catch (RuntimeException e) {
        System.out.println("outer failed: " + e.getClass().getName() + ": " + e.getMessage());
      }
      System.out.println("provider " + provider.getClass().getName());
      System.out.println("spring " + SpringVersion.getVersion());
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
          outer.dsl().fetch("SELECT * FROM " + table + " WHERE id = 1 FOR UPDATE");
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
