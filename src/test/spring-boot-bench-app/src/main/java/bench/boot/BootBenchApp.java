package bench.boot;

import java.lang.management.ManagementFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * The Spring Boot service of the start-up benchmark: a web service with a Kafka producer and
 * listener ({@link OrderEvents}) and jOOQ on a HikariCP pool ({@link OpenOrders}, {@link Pool}),
 * none of which reaches a server (no broker, no database: {@code application.properties}). Prints
 * {@code ready-ms=} (the JVM's uptime at {@link ApplicationReadyEvent}: what the service notices),
 * then, once an attached Faultline agent has finished installing, {@code cpu-ms=} (the process's
 * CPU time: what it paid), and exits.
 */
@SpringBootApplication
public class BootBenchApp {

  /** Starts the service, reports, and stops it. */
  public static void main(String[] args) throws Exception {
    ConfigurableApplicationContext context = SpringApplication.run(BootBenchApp.class, args);
    AgentInstalled.await();
    long cpuNanos =
        ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime();
    System.out.println("cpu-ms=" + cpuNanos / 1_000_000);
    System.out.println("sql-length=" + context.getBean(OpenOrders.class).sql().length());
    System.exit(SpringApplication.exit(context));
  }

  @Bean
  ApplicationListener<ApplicationReadyEvent> readyUptime() {
    return event ->
        System.out.println("ready-ms=" + ManagementFactory.getRuntimeMXBean().getUptime());
  }
}
