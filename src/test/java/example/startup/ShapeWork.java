package example.startup;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * The work every start-up shape does once its shape is set up: produce a few records to the real
 * broker, and run a transaction with a nested one (a savepoint) on the real PostgreSQL. No
 * Faultline code. The shapes' arguments are the same: bootstrap servers, topic, JDBC URL, user,
 * password, table.
 */
public final class ShapeWork {

  /** Records each shape produces. */
  static final int RECORDS = 20;

  private ShapeWork() {}

  /** Both halves of the work, then {@code done <label>}; {@code args} as the shapes take them. */
  public static void run(String label, String[] args) throws Exception {
    produce(args[0], args[1], null);
    nestedTransaction(args[2], args[3], args[4], args[5]);
    System.out.println("done " + label);
    System.out.flush();
  }

  /** Sends {@link #RECORDS} records (acks=all) and waits for every acknowledgement. */
  public static void produce(String bootstrap, String topic, Callback callback) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      List<Future<RecordMetadata>> sent = new ArrayList<>();
      for (int i = 0; i < RECORDS; i++) {
        byte[] value = ("record " + i).getBytes(StandardCharsets.UTF_8);
        sent.add(producer.send(new ProducerRecord<>(topic, value), callback));
      }
      for (Future<RecordMetadata> f : sent) {
        f.get(60, TimeUnit.SECONDS);
      }
    }
    System.out.println("produced " + RECORDS);
  }

  /** A HikariCP pool on the database (driver named, so a plugin class loader finds it). */
  public static HikariDataSource pool(String url, String user, String password) {
    HikariConfig config = new HikariConfig();
    config.setDriverClassName("org.postgresql.Driver");
    config.setJdbcUrl(url);
    config.setUsername(user);
    config.setPassword(password);
    config.setMaximumPoolSize(2);
    return new HikariDataSource(config);
  }

  /** Creates {@code table} with one row if needed; jOOQ on a pool, as applications have it. */
  public static DSLContext prepare(HikariDataSource pool, String table) {
    DSLContext dsl = DSL.using(pool, SQLDialect.POSTGRES);
    dsl.execute("CREATE TABLE IF NOT EXISTS " + table + " (id int PRIMARY KEY, n int NOT NULL)");
    dsl.execute("INSERT INTO " + table + " VALUES (1, 0) ON CONFLICT (id) DO NOTHING");
    return dsl;
  }

  /** An update in a transaction and another in one nested in it: a savepoint on PostgreSQL. */
  public static void nestedTransaction(String url, String user, String password, String table) {
    try (HikariDataSource pool = pool(url, user, password)) {
      DSLContext dsl = prepare(pool, table);
      dsl.transaction(
          outer -> {
            outer.dsl().execute("UPDATE " + table + " SET n = n + 1 WHERE id = 1");
            outer
                .dsl()
                .transaction(
                    inner ->
                        inner.dsl().execute("UPDATE " + table + " SET n = n + 1 WHERE id = 1"));
          });
    }
    System.out.println("nested transaction committed");
  }

  /**
   * Until {@code stop} on standard input: each other line runs the work again (a new producer, new
   * transactions) and prints {@code again done <n>}, so the test can check that what loaded while
   * the agent started is instrumented once it has.
   */
  public static void repeatOnRequest(String[] args) throws Exception {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    int round = 0;
    for (String line = in.readLine(); line != null && !line.equals("stop"); line = in.readLine()) {
      round++;
      produce(args[0], args[1], null);
      nestedTransaction(args[2], args[3], args[4], args[5]);
      System.out.println("again done " + round);
      System.out.flush();
    }
    System.out.println("bye");
  }
}
