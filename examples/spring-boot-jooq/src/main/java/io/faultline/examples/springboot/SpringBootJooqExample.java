package io.faultline.examples.springboot;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.jooq.GuardedTransactionProvider;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jooq.DSLContext;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * jooq-guard in a Spring Boot application with the jOOQ starter and {@code
 * faultline-spring-boot-starter}: the starter wraps Boot's {@code SpringTransactionProvider} in the
 * guard, configured by the {@code faultline.*} properties, and reports to the {@link Findings} and
 * {@link MeterRegistry} beans, so the application declares no Faultline bean at all. On start it
 * runs the Channel.io PostgreSQL outage's flow (a nested transaction after {@code SELECT … FOR
 * UPDATE}) and a runaway query, prints what the guard counted and found, and exits.
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

  /** Where the guard's meters go; an application with Actuator has one already. */
  @Bean
  MeterRegistry meterRegistry() {
    return new SimpleMeterRegistry();
  }

  /**
   * The scenes, run once the context is up; the tests turn them off ({@code example.scenes=false}).
   */
  @Bean
  @ConditionalOnProperty(name = "example.scenes", havingValue = "true", matchIfMissing = true)
  ApplicationRunner scenes(DSLContext dsl, Findings findings, MeterRegistry registry) {
    return args -> {
      GuardedTransactionProvider guarded =
          (GuardedTransactionProvider) dsl.configuration().transactionProvider();
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
