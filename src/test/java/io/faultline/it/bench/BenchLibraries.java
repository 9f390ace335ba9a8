package io.faultline.it.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.faultline.it.agent.app.AgentReady;
import java.lang.management.ManagementFactory;
import java.util.Properties;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * The library start-up of {@link StartupBenchmark}: a service's first second with kafka-clients,
 * jOOQ and HikariCP — a producer and a consumer built (their I/O threads start and try a port
 * nobody listens on), a HikariCP pool that opens no connection, a jOOQ query rendered. Prints
 * {@code main-ms=} (the JVM's uptime when that work is done: what the service notices), then, once
 * an attached Faultline agent has finished installing, {@code cpu-ms=} (the process's CPU time:
 * what it paid), and once the process has settled, {@code settled-cpu-ms=}: no class loaded for
 * half a second (with or without an agent, so that every variant runs as long) and the agent's
 * export started and its host doctor run once (they wait for the start-up to settle).
 */
public final class BenchLibraries {

  private BenchLibraries() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    Properties producerProps = new Properties();
    producerProps.put("bootstrap.servers", "127.0.0.1:1");
    producerProps.put("key.serializer", ByteArraySerializer.class.getName());
    producerProps.put("value.serializer", ByteArraySerializer.class.getName());
    Properties consumerProps = new Properties();
    consumerProps.put("bootstrap.servers", "127.0.0.1:1");
    consumerProps.put("key.deserializer", ByteArrayDeserializer.class.getName());
    consumerProps.put("value.deserializer", ByteArrayDeserializer.class.getName());
    HikariConfig pool = new HikariConfig();
    pool.setJdbcUrl("jdbc:postgresql://127.0.0.1:1/bench");
    pool.setMinimumIdle(0);
    pool.setInitializationFailTimeout(-1);
    String sql;
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps);
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps);
        HikariDataSource dataSource = new HikariDataSource(pool)) {
      DSLContext dsl = DSL.using(dataSource, SQLDialect.POSTGRES);
      sql =
          dsl.select(DSL.field("id"))
              .from(DSL.table("orders"))
              .where(DSL.field("state").eq("open"))
              .getSQL();
    }
    System.out.println("main-ms=" + ManagementFactory.getRuntimeMXBean().getUptime());
    AgentReady.await();
    long cpuNanos = processCpuNanos();
    System.out.println("cpu-ms=" + cpuNanos / 1_000_000);
    awaitNoClassLoading(500);
    AgentReady.awaitFirstDoctorRun();
    System.out.println("settled-cpu-ms=" + processCpuNanos() / 1_000_000);
    System.out.println("sql-length=" + sql.length());
  }

  /** Returns once no class has loaded for {@code quietMillis}. */
  private static void awaitNoClassLoading(long quietMillis) throws InterruptedException {
    java.lang.management.ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
    long count = classes.getTotalLoadedClassCount();
    long quietSince = System.nanoTime();
    while (System.nanoTime() - quietSince < quietMillis * 1_000_000L) {
      Thread.sleep(20);
      long now = classes.getTotalLoadedClassCount();
      if (now != count) {
        count = now;
        quietSince = System.nanoTime();
      }
    }
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
