package io.faultline.it.bootapp;

import java.util.Arrays;
import javax.sql.DataSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The same application's dependencies without jOOQ on the class path (the test leaves its jar out):
 * the starter must start, guard nothing, watch no transaction manager, and fail nothing. Prints the
 * Faultline beans the context holds, then exits.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class NoJooqApp {

  /** Starts, lists the beans, exits. */
  public static void main(String[] args) {
    SpringApplication app = new SpringApplication(NoJooqApp.class);
    app.setWebApplicationType(WebApplicationType.NONE);
    try (ConfigurableApplicationContext context = app.run(args)) {
      System.out.println(
          "jooq on class path: "
              + (NoJooqApp.class.getClassLoader().getResource("org/jooq/DSLContext.class")
                  != null));
      Arrays.stream(context.getBeanDefinitionNames())
          .filter(name -> name.toLowerCase(java.util.Locale.ROOT).contains("faultline"))
          .sorted()
          .forEach(name -> System.out.println("bean: " + name));
      // Spring's transactions, nested, still work: the starter put nothing in their way.
      TransactionTemplate outer =
          new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
      TransactionTemplate nested =
          new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
      nested.setPropagationBehavior(TransactionDefinition.PROPAGATION_NESTED);
      JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
      Integer one =
          outer.execute(
              status -> nested.execute(inner -> jdbc.queryForObject("SELECT 1", Integer.class)));
      System.out.println("nested transaction without jOOQ: " + one);
      System.out.println("started without jOOQ");
    }
  }
}
