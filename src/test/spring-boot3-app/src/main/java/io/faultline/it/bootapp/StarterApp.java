package io.faultline.it.bootapp;

import io.faultline.core.finding.Findings;
import io.faultline.jooq.GuardedTransactionProvider;
import org.jooq.DSLContext;
import org.jooq.TransactionProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;

/**
 * A Boot application that declares no Faultline bean (built for Boot 3.5 here and for Boot 4 by
 * {@code src/test/spring-boot4-app} from the same sources): once ready it runs the Channel.io
 * outage's flow (a nested transaction after {@code SELECT ... FOR UPDATE}) through jOOQ, through
 * {@code @Transactional}, or both, prints what the guard counted, and keeps serving so the test can
 * read {@code /actuator/faultline} and {@code /actuator/health}.
 */
@SpringBootApplication
public class StarterApp {

  /** Starts the application. */
  public static void main(String[] args) {
    SpringApplication.run(StarterApp.class, args);
  }

  /**
   * The flows named by {@code --scenes} (comma-separated; default {@code jooq}), once the context
   * is up: {@code jooq} nests {@code dsl.transaction}s, {@code transactional} nests a
   * {@code @Transactional(propagation = NESTED)} method in a {@code @Transactional} one, {@code
   * mixed} runs a {@code dsl.transaction} inside a {@code @Transactional} method. Each after a row
   * lock.
   */
  @Bean
  ApplicationListener<ApplicationReadyEvent> scenes(
      DSLContext dsl, Findings findings, Accounts accounts) {
    return event -> {
      // local.server.port: the same on Boot 3 and 4 (whose web-server event moved package).
      System.out.println(
          "port: "
              + event.getApplicationContext().getEnvironment().getProperty("local.server.port"));
      TransactionProvider provider = dsl.configuration().transactionProvider();
      System.out.println("provider: " + provider.getClass().getSimpleName());
      String scenes = event.getApplicationContext().getEnvironment().getProperty("scenes", "jooq");
      dsl.execute("DROP TABLE IF EXISTS boot_starter_account");
      dsl.execute("CREATE TABLE boot_starter_account (id int PRIMARY KEY, balance int NOT NULL)");
      dsl.execute("INSERT INTO boot_starter_account VALUES (1, 100)");
      for (String scene : scenes.split(",")) {
        try {
          switch (scene) {
            case "jooq" -> jooqFlow(dsl);
            case "transactional" -> accounts.debitThroughNestedMethod(1);
            case "mixed" -> accounts.debitThroughJooqTransaction(1);
            case "mixed-failing" -> accounts.debitThroughFailingJooqTransaction(1);
            default -> throw new IllegalArgumentException("no scene " + scene);
          }
          System.out.println("scene " + scene + ": done");
        } catch (RuntimeException e) {
          System.out.println("scene " + scene + ": failed: " + e.getClass().getSimpleName());
        }
        if (provider instanceof GuardedTransactionProvider guarded) {
          System.out.println("guard stats after " + scene + ": " + guarded.guard().stats());
        }
      }
      System.out.println(
          "balance: "
              + dsl.fetchValue(
                  "SELECT balance FROM boot_starter_account WHERE id = 1", Integer.class));
      dsl.execute("DROP TABLE boot_starter_account");
      if (provider instanceof GuardedTransactionProvider guarded) {
        System.out.println("guard stats: " + guarded.guard().stats());
      }
      findings
          .active()
          .forEach(f -> System.out.println("finding " + f.id() + " at " + f.subject()));
      findings.active().forEach(f -> System.out.println("message " + f.id() + ": " + f.message()));
      System.out.println("scenes done");
    };
  }

  /** The jOOQ way: a nested {@code dsl.transaction} after {@code SELECT ... FOR UPDATE}. */
  private static void jooqFlow(DSLContext dsl) {
    dsl.transaction(
        outer -> {
          outer.dsl().fetch("SELECT * FROM boot_starter_account WHERE id = 1 FOR UPDATE");
          outer
              .dsl()
              .transaction(
                  inner ->
                      inner
                          .dsl()
                          .execute(
                              "UPDATE boot_starter_account SET balance = balance - 1"
                                  + " WHERE id = 1"));
        });
  }
}
