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
 * outage's flow (a nested transaction after {@code SELECT ... FOR UPDATE}), prints what the guard
 * counted, and keeps serving so the test can read {@code /actuator/faultline} and {@code
 * /actuator/health}.
 */
@SpringBootApplication
public class StarterApp {

  /** Starts the application. */
  public static void main(String[] args) {
    SpringApplication.run(StarterApp.class, args);
  }

  /** The flow, once the context is up. */
  @Bean
  ApplicationListener<ApplicationReadyEvent> scenes(DSLContext dsl, Findings findings) {
    return event -> {
      // local.server.port: the same on Boot 3 and 4 (whose web-server event moved package).
      System.out.println(
          "port: "
              + event.getApplicationContext().getEnvironment().getProperty("local.server.port"));
      TransactionProvider provider = dsl.configuration().transactionProvider();
      System.out.println("provider: " + provider.getClass().getSimpleName());
      dsl.execute("DROP TABLE IF EXISTS boot_starter_account");
      dsl.execute("CREATE TABLE boot_starter_account (id int PRIMARY KEY, balance int NOT NULL)");
      dsl.execute("INSERT INTO boot_starter_account VALUES (1, 100)");
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
      dsl.execute("DROP TABLE boot_starter_account");
      if (provider instanceof GuardedTransactionProvider guarded) {
        System.out.println("guard stats: " + guarded.guard().stats());
      }
      findings.active().forEach(f -> System.out.println("finding " + f.id()));
      System.out.println("scenes done");
    };
  }
}
