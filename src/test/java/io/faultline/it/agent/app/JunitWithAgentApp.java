package io.faultline.it.agent.app;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.faultline.junit.FaultlineTest;
import io.faultline.junit.MaxStatements;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * A team's test run in a JVM started with the agent, as Surefire's {@code argLine} would: the JUnit
 * platform runs {@link Target}, whose code is plain jOOQ with no Faultline code at all (the agent
 * guards jOOQ's own provider), with {@code @FaultlineTest}. Prints one line per test ({@code PASSED
 * name} or {@code FAILED name: message}, newlines as {@code |}) and per report entry ({@code REPORT
 * key=value}).
 *
 * <p>System properties: {@code it.jdbc.url}, {@code it.jdbc.user}, {@code it.jdbc.password}, {@code
 * it.table} (two rows, ids 1 and 2).
 */
public final class JunitWithAgentApp {

  private JunitWithAgentApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    AgentReady.await();
    LauncherDiscoveryRequest request =
        LauncherDiscoveryRequestBuilder.request().selectors(selectClass(Target.class)).build();
    LauncherFactory.create()
        .execute(
            request,
            new TestExecutionListener() {
              @Override
              public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                if (!test.isTest()) {
                  return;
                }
                System.out.println(
                    result.getStatus() == TestExecutionResult.Status.SUCCESSFUL
                        ? "PASSED " + test.getDisplayName()
                        : "FAILED "
                            + test.getDisplayName()
                            + ": "
                            + result
                                .getThrowable()
                                .map(Throwable::toString)
                                .orElse("?")
                                .replace('\n', '|'));
              }

              @Override
              public void reportingEntryPublished(TestIdentifier test, ReportEntry entry) {
                entry
                    .getKeyValuePairs()
                    .forEach(
                        (k, v) -> System.out.println("REPORT " + k + "=" + v.replace('\n', '|')));
              }
            });
    System.out.flush();
  }

  /** The team's test class. */
  @FaultlineTest
  public static class Target {
    private static HikariDataSource pool;
    private static DSLContext dsl;
    private static String table;

    @BeforeAll
    static void connect() {
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(System.getProperty("it.jdbc.url"));
      config.setUsername(System.getProperty("it.jdbc.user"));
      config.setPassword(System.getProperty("it.jdbc.password"));
      config.setMaximumPoolSize(2);
      pool = new HikariDataSource(config);
      dsl = DSL.using(pool, SQLDialect.POSTGRES);
      table = System.getProperty("it.table");
    }

    @AfterAll
    static void close() {
      pool.close();
    }

    @Test
    void savepointAfterForUpdate() {
      dsl.transaction(
          outer -> {
            outer.dsl().fetch("SELECT * FROM " + table + " WHERE id = 1 FOR UPDATE");
            outer
                .dsl()
                .transaction(
                    inner ->
                        inner
                            .dsl()
                            .execute(
                                "UPDATE " + table + " SET balance = balance - 10 WHERE id = 1"));
          });
    }

    @Test
    void clean() {
      dsl.transaction(tx -> tx.dsl().fetch("SELECT * FROM " + table + " WHERE id = 2"));
    }

    @Test
    @MaxStatements(1)
    void twoStatements() {
      dsl.transaction(
          tx -> {
            tx.dsl().fetch("SELECT * FROM " + table + " WHERE id = 2");
            tx.dsl().fetch("SELECT * FROM " + table + " WHERE id = 2");
          });
    }
  }
}
