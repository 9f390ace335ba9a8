package io.faultline.it.examples.app;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * A plain Kafka + jOOQ + HikariCP service with no Faultline code, doing on purpose what the
 * incidents did, so an agent-instrumented run fills every panel of the Grafana dashboard: a
 * producer and a consumer moving ~2 MB/s, a fleet of twelve small producers (a reconnect storm when
 * a broker returns), nested jOOQ transactions after {@code SELECT … FOR UPDATE}, an occasional
 * runaway query, a transaction held open for 20 s at a time, rows share- locked by two sessions
 * (MultiXacts), and a JDBC connection opened per request.
 *
 * <p>Arguments: bootstrap servers, topic, JDBC URL, user, password. Prints {@code ready}, works
 * until its standard input gets a line, then prints {@code bye}.
 */
public final class DashboardWorkloadApp {

  private static final AtomicBoolean STOP = new AtomicBoolean();

  private DashboardWorkloadApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    String bootstrap = args[0];
    String topic = args[1];
    String url = args[2];
    String user = args[3];
    String password = args[4];
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setUsername(user);
    config.setPassword(password);
    config.setMaximumPoolSize(6);
    ExecutorService workers = Executors.newFixedThreadPool(7);
    try (HikariDataSource pool = new HikariDataSource(config)) {
      DSLContext dsl = DSL.using(pool, SQLDialect.POSTGRES);
      String table = "dashboard_account";
      dsl.execute("DROP TABLE IF EXISTS " + table);
      dsl.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, balance int NOT NULL)");
      dsl.execute("INSERT INTO " + table + " SELECT g, 100 FROM generate_series(1, 100000) AS g");
      List<Future<?>> running = new ArrayList<>();
      running.add(workers.submit(() -> produce(bootstrap, topic)));
      running.add(workers.submit(() -> consume(bootstrap, topic)));
      running.add(workers.submit(() -> fleet(bootstrap, topic)));
      running.add(workers.submit(() -> nestedTransactions(dsl, table)));
      running.add(workers.submit(() -> longTransactions(url, user, password)));
      running.add(workers.submit(() -> sharedRowLocks(pool, table)));
      running.add(workers.submit(() -> connectionPerRequest(url, user, password)));
      System.out.println("ready");
      System.out.flush();
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      STOP.set(true);
      for (Future<?> f : running) {
        try {
          f.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
          System.out.println("worker ended with " + e);
        }
      }
    } finally {
      workers.shutdownNow();
    }
    System.out.println("bye");
  }

  private static void produce(String bootstrap, String topic) {
    Map<String, Object> p =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ProducerConfig.CLIENT_ID_CONFIG,
            "orders-producer",
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.LINGER_MS_CONFIG,
            5,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
            120_000);
    byte[] value = new byte[16 * 1024];
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      while (!STOP.get()) {
        for (int i = 0; i < 12; i++) {
          producer.send(new ProducerRecord<>(topic, value));
        }
        pause(100);
      }
    } catch (RuntimeException e) {
      System.out.println("producer: " + e);
    }
  }

  /**
   * Twelve small producers, one record a second each: when a broker comes back they all reconnect
   * at once, the storm the reconnect gate staggers.
   */
  private static void fleet(String bootstrap, String topic) {
    List<KafkaProducer<byte[], byte[]>> fleet = new ArrayList<>();
    try {
      for (int i = 0; i < 12; i++) {
        fleet.add(
            new KafkaProducer<>(
                Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    bootstrap,
                    ProducerConfig.CLIENT_ID_CONFIG,
                    "fleet-" + i,
                    ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                    120_000),
                new ByteArraySerializer(),
                new ByteArraySerializer()));
      }
      byte[] value = new byte[100];
      while (!STOP.get()) {
        for (KafkaProducer<byte[], byte[]> producer : fleet) {
          producer.send(new ProducerRecord<>(topic, value));
        }
        pause(1000);
      }
    } catch (RuntimeException e) {
      System.out.println("fleet: " + e);
    } finally {
      fleet.forEach(p -> p.close(Duration.ofSeconds(5)));
    }
  }

  private static void consume(String bootstrap, String topic) {
    Map<String, Object> c =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ConsumerConfig.CLIENT_ID_CONFIG,
            "orders-consumer",
            ConsumerConfig.GROUP_ID_CONFIG,
            "dashboard-" + topic,
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest");
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topic));
      while (!STOP.get()) {
        consumer.poll(Duration.ofMillis(200));
      }
    } catch (RuntimeException e) {
      System.out.println("consumer: " + e);
    }
  }

  /**
   * The Channel.io PostgreSQL outage: lock a row, then update it in a nested transaction (a
   * savepoint); now and then a runaway query for the statement timeout.
   */
  private static void nestedTransactions(DSLContext dsl, String table) {
    int round = 0;
    while (!STOP.get()) {
      int id = ThreadLocalRandom.current().nextInt(1, 100_001);
      try {
        dsl.transaction(
            outer -> {
              outer.dsl().fetch("SELECT * FROM " + table + " WHERE id = " + id + " FOR UPDATE");
              outer
                  .dsl()
                  .transaction(
                      inner ->
                          inner
                              .dsl()
                              .execute(
                                  "UPDATE "
                                      + table
                                      + " SET balance = balance - 1 WHERE id = "
                                      + id));
            });
        if (++round % 25 == 0) {
          dsl.transaction(tx -> tx.dsl().execute("SELECT pg_sleep(2)"));
        }
      } catch (RuntimeException e) {
        // the runaway query's timeout: expected, counted by the agent
      }
      pause(150);
    }
  }

  /** A transaction held open for 20 s, then committed: the oldest-transaction age saw-tooth. */
  private static void longTransactions(String url, String user, String password) {
    while (!STOP.get()) {
      try (Connection c = DriverManager.getConnection(url, user, password)) {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
          s.execute("SELECT txid_current()");
        }
        for (int i = 0; i < 200 && !STOP.get(); i++) {
          pause(100);
        }
        c.commit();
      } catch (Exception e) {
        System.out.println("long transaction: " + e);
        pause(1000);
      }
      pause(3000);
    }
  }

  /** Two sessions share-lock the same rows: every such row gets a MultiXact. */
  private static void sharedRowLocks(HikariDataSource pool, String table) {
    while (!STOP.get()) {
      int from = ThreadLocalRandom.current().nextInt(1, 99_000);
      String sql =
          "SELECT id FROM "
              + table
              + " WHERE id BETWEEN "
              + from
              + " AND "
              + (from + 200)
              + " FOR SHARE";
      try (Connection a = pool.getConnection();
          Connection b = pool.getConnection()) {
        a.setAutoCommit(false);
        b.setAutoCommit(false);
        try (Statement sa = a.createStatement();
            Statement sb = b.createStatement()) {
          sa.execute(sql);
          sb.execute(sql);
        }
        a.commit();
        b.commit();
      } catch (Exception e) {
        System.out.println("share locks: " + e);
      }
      pause(100);
    }
  }

  /** The anti-pattern: a new physical connection for every request. */
  private static void connectionPerRequest(String url, String user, String password) {
    while (!STOP.get()) {
      try (Connection c = DriverManager.getConnection(url, user, password);
          Statement s = c.createStatement()) {
        s.execute("SELECT 1");
      } catch (Exception e) {
        System.out.println("per-request connection: " + e);
      }
      pause(100);
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      STOP.set(true);
    }
  }
}
