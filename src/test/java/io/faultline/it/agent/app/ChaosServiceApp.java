package io.faultline.it.agent.app;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * A plain service with no Faultline code, for the chaos tests: the whole time it produces numbered
 * records with an idempotent producer (acks=all), consumes them back (assigned partitions, no
 * group, so a rebalance cannot replay anything), and runs jOOQ transactions with two levels of
 * nested transactions (savepoints) on a HikariCP pool, committing some and rolling back some. It
 * keeps a ledger of what the application was told: records acked or failed, records consumed (each
 * time), and each transaction's outcome with the rows it left.
 *
 * <p>Transaction {@code t} inserts row {@code (t, 0)}, then in a nested transaction {@code (t, 1)},
 * and inside that another nested one {@code (t, 2)}, which rolls back to its savepoint when {@code
 * t % 3 == 0}; the middle level then sleeps in {@code pg_sleep} (its savepoint outstanding, where a
 * fault hits); the whole transaction rolls back when {@code t % 4 == 0}. One that fails for any
 * other reason is "failed" when it failed before its body ended (so it never reached COMMIT and
 * must leave nothing), "in doubt" when the commit itself failed.
 *
 * <p>Standard input: {@code exhaust THREADS SECONDS} runs that many more transaction threads (each
 * holding its connection 0.5 s) for that long; {@code stop} stops the work, drains the producer and
 * the consumer and writes the ledger; {@code exit} ends the JVM. For the soak: {@code churn N}
 * creates N producers and N consumers (default client ids, as most applications leave them), sends
 * and polls once with each and closes them; {@code resize N} sets the pool's maximum size through
 * its {@code HikariConfigMXBean}; {@code destinations N} connects once to each of N addresses never
 * connected to before (127.0.0.x on a port the service listens on itself); {@code gc} runs {@code
 * System.gc()} and then counts the heap used and the threads. A progress file is rewritten every
 * 200 ms: {@code acked=N consumed=N committed=N lastAck=EPOCH_MS lastCommit=EPOCH_MS} and, once
 * {@code gc} has run, {@code gcs=N heapAfterGc=BYTES threads=N faultlineThreads=N}.
 *
 * <p>Arguments: bootstrap servers, topic, JDBC URL, user, password, table, pool size, progress
 * file, ledger file, and optionally {@code counts}: the soak's mode, which keeps only counts
 * instead of the ledger's sets (an hour of them would grow the heap the soak watches), so the
 * ledger written at {@code stop} is empty.
 */
public final class ChaosServiceApp {

  private static final int WORKERS = 2;

  /** The key of the churned producers' records, which the service's consumer does not count. */
  private static final String CHURN_KEY = "churn";

  private final String topic;
  private final DSLContext dsl;
  private final String table;
  private final Set<Integer> acked = new ConcurrentSkipListSet<>();
  private final Set<Integer> sendFailed = new ConcurrentSkipListSet<>();
  private final ConcurrentHashMap<Integer, Integer> consumed = new ConcurrentHashMap<>();
  private final Set<String> committedRows = new ConcurrentSkipListSet<>();
  private final Set<Integer> committed = new ConcurrentSkipListSet<>();
  private final Set<Integer> rolledBack = new ConcurrentSkipListSet<>();
  private final Set<Integer> failed = new ConcurrentSkipListSet<>();
  private final Set<Integer> inDoubt = new ConcurrentSkipListSet<>();
  private final Set<String> failures = ConcurrentHashMap.newKeySet();
  private final AtomicInteger nextTx = new AtomicInteger();
  private final AtomicInteger poolTimeouts = new AtomicInteger();
  private final AtomicLong lastAck = new AtomicLong();
  private final AtomicLong lastCommit = new AtomicLong();
  private final AtomicLong ackedCount = new AtomicLong();
  private final AtomicLong consumedCount = new AtomicLong();
  private final AtomicLong committedCount = new AtomicLong();
  private final AtomicLong gcs = new AtomicLong();
  private volatile String afterGc = "";
  private final boolean keepLedger;
  private final String bootstrap;
  private final HikariDataSource pool;
  private final Destinations destinations = new Destinations();
  private volatile boolean working = true;
  private volatile boolean consuming = true;

  private ChaosServiceApp(
      String bootstrap,
      String topic,
      HikariDataSource pool,
      DSLContext dsl,
      String table,
      boolean keepLedger) {
    this.bootstrap = bootstrap;
    this.topic = topic;
    this.pool = pool;
    this.dsl = dsl;
    this.table = table;
    this.keepLedger = keepLedger;
  }

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    // Every transaction and request is to be seen by the agent: not before it has woven them.
    AgentReady.await();
    String bootstrap = args[0];
    String topic = args[1];
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(args[2]);
    config.setUsername(args[3]);
    config.setPassword(args[4]);
    config.setPoolName("chaos");
    config.setMaximumPoolSize(Integer.parseInt(args[6]));
    // An exhausted pool answers within a second instead of the default 30 s.
    config.setConnectionTimeout(1_000);
    // PostgreSQL's default, which the suite's embedded server turns off for speed: without it a
    // crash loses commits already acknowledged, whatever the application did.
    config.setConnectionInitSql("SET synchronous_commit TO on");
    String table = args[5];
    Path progress = Path.of(args[7]);
    Path ledger = Path.of(args[8]);
    boolean keepLedger = !(args.length > 9 && args[9].equals("counts"));
    try (HikariDataSource pool = new HikariDataSource(config);
        KafkaProducer<String, String> producer = new KafkaProducer<>(producerSettings(bootstrap));
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerSettings(bootstrap))) {
      DSLContext dsl = DSL.using(pool, SQLDialect.POSTGRES);
      dsl.execute("DROP TABLE IF EXISTS " + table);
      dsl.execute("CREATE TABLE " + table + " (tx int, part int, PRIMARY KEY (tx, part))");
      new ChaosServiceApp(bootstrap, topic, pool, dsl, table, keepLedger)
          .run(producer, consumer, progress, ledger);
    }
    System.out.println("bye");
  }

  private static Properties producerSettings(String bootstrap) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, "chaos-producer");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    // Shorter than the 30 s pause of the chaos test, so requests to a paused broker time out.
    p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    return p;
  }

  private static Properties consumerSettings(String bootstrap) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    c.put(ConsumerConfig.CLIENT_ID_CONFIG, "chaos-consumer");
    c.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    return c;
  }

  private void run(
      KafkaProducer<String, String> producer,
      KafkaConsumer<String, String> consumer,
      Path progress,
      Path ledger)
      throws Exception {
    List<Thread> workers = new ArrayList<>();
    workers.add(start("chaos-producer-loop", () -> produce(producer)));
    for (int i = 0; i < WORKERS; i++) {
      workers.add(start("chaos-tx-" + i, () -> transactions(20, () -> working)));
    }
    Thread consumerThread = start("chaos-consumer-loop", () -> consume(consumer));
    Thread progressThread = start("chaos-progress", () -> writeProgress(progress));
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] words = line.trim().split("\\s+");
      if (words[0].equals("exhaust")) {
        exhaust(Integer.parseInt(words[1]), Integer.parseInt(words[2]));
      } else if (words[0].equals("churn")) {
        int clients = Integer.parseInt(words[1]);
        start("chaos-churn", () -> churn(clients));
      } else if (words[0].equals("resize")) {
        pool.getHikariConfigMXBean().setMaximumPoolSize(Integer.parseInt(words[1]));
      } else if (words[0].equals("destinations")) {
        int count = Integer.parseInt(words[1]);
        start("chaos-destinations", () -> destinations.connectToNew(count));
      } else if (words[0].equals("gc")) {
        start("chaos-gc", this::gc);
      } else if (words[0].equals("stop")) {
        break;
      }
    }
    working = false;
    for (Thread t : workers) {
      t.join(TimeUnit.SECONDS.toMillis(150));
    }
    // Every send has its answer (acked or failed) once flush returns.
    producer.flush();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!consumed.keySet().containsAll(acked) && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    consuming = false;
    consumerThread.join(TimeUnit.SECONDS.toMillis(30));
    progressThread.interrupt();
    destinations.close();
    Files.writeString(ledger, ledger());
    System.out.println("ledger written");
    System.out.flush();
    // Stays up, quiet, so the test reads the agent's meters at rest.
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.trim().equals("exit")) {
        break;
      }
    }
  }

  private static Thread start(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  private void produce(KafkaProducer<String, String> producer) {
    int n = 0;
    while (working) {
      int number = n++;
      try {
        producer.send(
            new ProducerRecord<>(topic, Integer.toString(number), "record " + number),
            (metadata, error) -> {
              if (error == null) {
                ackedCount.incrementAndGet();
                remember(acked, number);
                lastAck.set(System.currentTimeMillis());
              } else {
                remember(sendFailed, number);
                failures.add("send: " + error.getClass().getSimpleName());
              }
            });
      } catch (RuntimeException e) {
        // send() itself refused it (metadata not available within max.block.ms): never sent.
        remember(sendFailed, number);
        failures.add("send: " + e.getClass().getSimpleName());
      }
      sleep(10);
    }
  }

  private void consume(KafkaConsumer<String, String> consumer) {
    List<TopicPartition> partitions = new ArrayList<>();
    for (PartitionInfo p : consumer.partitionsFor(topic, Duration.ofSeconds(60))) {
      partitions.add(new TopicPartition(topic, p.partition()));
    }
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    while (consuming) {
      try {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
          if (CHURN_KEY.equals(r.key())) {
            continue;
          }
          consumedCount.incrementAndGet();
          if (keepLedger) {
            consumed.merge(Integer.parseInt(r.key()), 1, Integer::sum);
          }
        }
      } catch (RuntimeException e) {
        // A fetch that failed is retried from the same position; nothing to record but the fact.
        failures.add("poll: " + e.getClass().getSimpleName());
      }
    }
  }

  private void exhaust(int threads, int seconds) {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    for (int i = 0; i < threads; i++) {
      start("chaos-exhaust-" + i, () -> transactions(500, () -> System.nanoTime() < until));
    }
  }

  private void transactions(int holdMillis, java.util.function.BooleanSupplier go) {
    while (go.getAsBoolean() && working) {
      transaction(nextTx.incrementAndGet(), holdMillis);
      sleep(20);
    }
  }

  /** One transaction with its nested ones; records what the application was told. */
  private void transaction(int t, int holdMillis) {
    boolean[] bodyEnded = {false};
    boolean innerKept = t % 3 != 0;
    try {
      dsl.transaction(
          outer -> {
            outer.dsl().execute("INSERT INTO " + table + " VALUES (?, 0)", t);
            outer
                .dsl()
                .transaction(
                    middle -> {
                      middle.dsl().execute("INSERT INTO " + table + " VALUES (?, 1)", t);
                      try {
                        middle
                            .dsl()
                            .transaction(
                                inner -> {
                                  inner.dsl().execute("INSERT INTO " + table + " VALUES (?, 2)", t);
                                  if (!innerKept) {
                                    throw new IntentionalRollback();
                                  }
                                });
                      } catch (IntentionalRollback e) {
                        // Back to the inner savepoint; the middle level goes on.
                      }
                      // Holds the connection with the middle level's savepoint outstanding, where
                      // a fault hits; the comment names the service, for the test to find it.
                      middle
                          .dsl()
                          .execute(
                              "SELECT pg_sleep(" + holdMillis / 1000.0 + ") /* " + table + " */");
                    });
            if (t % 4 == 0) {
              throw new IntentionalRollback();
            }
            bodyEnded[0] = true;
          });
      committedCount.incrementAndGet();
      if (keepLedger) {
        committed.add(t);
        committedRows.add(t + ".0");
        committedRows.add(t + ".1");
        if (innerKept) {
          committedRows.add(t + ".2");
        }
      }
      lastCommit.set(System.currentTimeMillis());
    } catch (IntentionalRollback e) {
      remember(rolledBack, t);
    } catch (RuntimeException e) {
      remember(bodyEnded[0] ? inDoubt : failed, t);
      if (hasCause(e, SQLTransientConnectionException.class)) {
        poolTimeouts.incrementAndGet();
      }
      failures.add("tx: " + e.getClass().getSimpleName() + rootCause(e));
    }
  }

  /** Adds to a set of the ledger, unless only counts are kept. */
  private void remember(Set<Integer> set, int value) {
    if (keepLedger) {
      set.add(value);
    }
  }

  /**
   * Producers and consumers created and closed, as a service with short-lived clients does: each
   * producer sends one record (to the service's topic, under a key the consumer loop skips), each
   * consumer polls its partitions once.
   */
  private void churn(int clients) {
    for (int i = 0; i < clients; i++) {
      Properties p = producerSettings(bootstrap);
      p.remove(ProducerConfig.CLIENT_ID_CONFIG);
      try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
        producer.send(new ProducerRecord<>(topic, CHURN_KEY, "churn")).get(60, TimeUnit.SECONDS);
      } catch (Exception e) {
        failures.add("churn send: " + e.getClass().getSimpleName());
      }
      Properties c = consumerSettings(bootstrap);
      c.remove(ConsumerConfig.CLIENT_ID_CONFIG);
      try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (PartitionInfo info : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
          partitions.add(new TopicPartition(topic, info.partition()));
        }
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        consumer.poll(Duration.ofMillis(500));
      } catch (RuntimeException e) {
        failures.add("churn poll: " + e.getClass().getSimpleName());
      }
    }
  }

  /** A full collection, then the heap in use and the threads, for the progress file. */
  private void gc() {
    System.gc();
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    Set<Thread> threads = Thread.getAllStackTraces().keySet();
    long faultline = threads.stream().filter(t -> t.getName().startsWith("faultline-")).count();
    afterGc =
        " gcs="
            + gcs.incrementAndGet()
            + " heapAfterGc="
            + heap
            + " threads="
            + threads.size()
            + " faultlineThreads="
            + faultline;
  }

  private static boolean hasCause(Throwable e, Class<?> type) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (type.isInstance(c)) {
        return true;
      }
    }
    return false;
  }

  private static String rootCause(Throwable e) {
    Throwable c = e;
    while (c.getCause() != null) {
      c = c.getCause();
    }
    return c == e ? "" : " <- " + c.getClass().getSimpleName();
  }

  private void writeProgress(Path progress) {
    Path temp = progress.resolveSibling(progress.getFileName() + ".tmp");
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Files.writeString(
            temp,
            "acked="
                + ackedCount.get()
                + " consumed="
                + consumedCount.get()
                + " committed="
                + committedCount.get()
                + " lastAck="
                + lastAck.get()
                + " lastCommit="
                + lastCommit.get()
                + afterGc);
        Files.move(temp, progress, StandardCopyOption.REPLACE_EXISTING);
        Thread.sleep(200);
      } catch (InterruptedException e) {
        return;
      } catch (Exception e) {
        // The next round writes it again.
      }
    }
  }

  private String ledger() {
    StringBuilder out = new StringBuilder();
    line(out, "acked", acked);
    line(out, "sendFailed", sendFailed);
    // number:times, for every number consumed at least once
    line(
        out,
        "consumed",
        new java.util.TreeMap<>(consumed)
            .entrySet().stream().map(e -> e.getKey() + ":" + e.getValue()).toList());
    line(out, "committed", committed);
    line(out, "committedRows", committedRows);
    line(out, "rolledBack", rolledBack);
    line(out, "failed", failed);
    line(out, "inDoubt", inDoubt);
    out.append("poolTimeouts ").append(poolTimeouts.get()).append('\n');
    out.append("failures ")
        .append(failures.stream().sorted().collect(Collectors.joining("|")))
        .append('\n');
    return out.toString();
  }

  private static void line(StringBuilder out, String key, java.util.Collection<?> values) {
    out.append(key);
    for (Object v : values) {
      out.append(' ').append(v);
    }
    out.append('\n');
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Thrown by the application itself to roll a transaction (or a nested one) back. */
  private static final class IntentionalRollback extends RuntimeException {
    private static final long serialVersionUID = 1L;

    IntentionalRollback() {
      super("rolled back on purpose", null, false, false);
    }
  }
}
