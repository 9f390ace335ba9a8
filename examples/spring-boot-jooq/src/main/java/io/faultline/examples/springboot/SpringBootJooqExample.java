package io.faultline.examples.springboot;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.jooq.GuardedTransactionProvider;
import io.faultline.jooq.NestingPolicy;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.jooq.DSLContext;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.jooq.autoconfigure.SpringTransactionProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * jooq-guard in a Spring Boot application with the jOOQ starter: the guarded provider is a bean of
 * type {@code TransactionProvider}, so the starter uses it (instead of its own {@code
 * SpringTransactionProvider}, which it decorates) for the auto-configured {@link DSLContext}. On
 * start it runs the Channel.io PostgreSQL outage's flow (a nested transaction after {@code SELECT …
 * FOR UPDATE}) and a runaway query, prints what the guard counted and found, and exits.
 *
 * <p>Run: {@code java -jar target/faultline-example-spring-boot-jooq-*.jar
 * --spring.datasource.url=JDBC_URL --spring.datasource.username=USER
 * --spring.datasource.password=PASSWORD}
 */
@SpringBootApplication
public class SpringBootJooqExample {

  /** Starts the application; it exits when the runner is done. */
  public static void main(String[] args) {
    System.exit(SpringApplication.exit(SpringApplication.run(SpringBootJooqExample.class, args)));
  }

  /** Where the guard's findings go. */
  @Bean
  Findings findings() {
    return new Findings(Duration.ofMinutes(1), Clock.systemUTC(), System.getLogger("faultline"));
  }

  /** Where its meters go; an application with Actuator would use its registry instead. */
  @Bean
  MeterRegistry meterRegistry() {
    return new SimpleMeterRegistry();
  }

  /** The guard around Spring's provider, so jOOQ transactions join Spring-managed ones. */
  @Bean
  GuardedTransactionProvider transactionProvider(
      PlatformTransactionManager transactions,
      Findings findings,
      MeterRegistry registry,
      @Value("${faultline.jooq.nesting:WARN}") NestingPolicy nesting,
      @Value("${faultline.jooq.statement-timeout:0s}") Duration statementTimeout) {
    return GuardedTransactionProvider.wrap(new SpringTransactionProvider(transactions))
        .nesting(nesting)
        .statementTimeout(statementTimeout)
        .meterRegistry(registry)
        .findings(findings)
        .build();
  }

  /** The scenes, run once the context is up. */
  @Bean
  ApplicationRunner scenes(
      DSLContext dsl,
      GuardedTransactionProvider guarded,
      Findings findings,
      MeterRegistry registry) {
    return args -> {
      System.out.println(
          "provider: "
              + dsl.configuration().transactionProvider().getClass().getSimpleName()
              + " around "
              + guarded.delegate().getClass().getSimpleName());
      dsl.execute("DROP TABLE IF EXISTS spring_example_account");
      dsl.execute("CREATE TABLE spring_example_account (id int PRIMARY KEY, balance int NOT NULL)");
      dsl.execute("INSERT INTO spring_example_account VALUES (1, 100)");
      try {
        System.out.println("== A nested transaction after SELECT ... FOR UPDATE");
        try {
          dsl.transaction(
              outer -> {
                outer.dsl().fetch("SELECT * FROM spring_example_account WHERE id = 1 FOR UPDATE");
                outer
                    .dsl()
                    .transaction(
                        inner ->
                            inner
                                .dsl()
                                .execute(
                                    "UPDATE spring_example_account SET balance = balance - 1"
                                        + " WHERE id = 1"));
              });
          System.out.println("   committed");
        } catch (RuntimeException e) {
          // Under faultline.jooq.nesting=FAIL the inner transaction is refused.
          System.out.println("   refused: " + e.getMessage());
        }
        System.out.println("== A runaway query");
        try {
          dsl.transaction(tx -> tx.dsl().execute("SELECT pg_sleep(10)"));
        } catch (RuntimeException e) {
          System.out.println("   stopped: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
      } finally {
        dsl.execute("DROP TABLE IF EXISTS spring_example_account");
      }
      System.out.println("guard stats: " + guarded.guard().stats());
      for (Finding f : findings.active()) {
        System.out.println("finding " + f.id() + ": " + f.message());
      }
      registry.getMeters().stream()
          .filter(m -> m instanceof FunctionCounter)
          .map(
              m ->
                  "meter "
                      + m.getId().getName()
                      + m.getId().getTags()
                      + " = "
                      + ((FunctionCounter) m).count())
          .sorted()
          .forEach(System.out::println);
    };
  }
}
