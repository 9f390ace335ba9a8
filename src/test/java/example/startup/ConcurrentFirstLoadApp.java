package example.startup;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Shape (d): right at start, several threads load kafka-clients' and jOOQ's types at the same
 * moment (a latch lets them go together), then the work runs. Arguments: see {@link ShapeWork}.
 */
public final class ConcurrentFirstLoadApp {

  private static final List<List<String>> GROUPS =
      List.of(
          List.of(
              "org.apache.kafka.clients.producer.KafkaProducer",
              "org.apache.kafka.clients.NetworkClient",
              "org.apache.kafka.common.network.Selector"),
          List.of(
              "org.apache.kafka.clients.consumer.KafkaConsumer",
              "org.apache.kafka.clients.producer.internals.Sender",
              "org.apache.kafka.clients.producer.internals.RecordAccumulator"),
          List.of(
              "org.jooq.impl.DSL",
              "org.jooq.impl.DefaultTransactionProvider",
              "org.jooq.impl.ThreadLocalTransactionProvider"),
          List.of(
              "org.jooq.impl.DefaultConfiguration",
              "com.zaxxer.hikari.HikariDataSource",
              "com.zaxxer.hikari.pool.HikariPool"));

  private ConcurrentFirstLoadApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (List<String> group : GROUPS) {
      Thread t =
          new Thread(
              () -> {
                try {
                  go.await();
                  for (String name : group) {
                    Class.forName(name, true, ConcurrentFirstLoadApp.class.getClassLoader());
                  }
                } catch (Throwable e) {
                  failures.add(e);
                }
              },
              "first-load-" + threads.size());
      t.start();
      threads.add(t);
    }
    go.countDown();
    for (Thread t : threads) {
      t.join();
    }
    if (!failures.isEmpty()) {
      throw new IllegalStateException("loading failed: " + failures);
    }
    System.out.println("loaded concurrently");
    ShapeWork.run("concurrent-first-load", args);
    ShapeWork.repeatOnRequest(args);
  }
}
