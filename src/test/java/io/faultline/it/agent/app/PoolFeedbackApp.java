package io.faultline.it.agent.app;

import com.zaxxer.hikari.HikariDataSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An application that knows nothing of Faultline: builds a HikariCP pool the way Spring Boot does
 * (no-argument constructor, setters, started by the first getConnection), then has 24 threads
 * update the same 3 rows, each holding its row lock 50 ms. Polls the agent's findings until {@code
 * POOL_GROWTH_UNDER_CONTENTION} appears (prints {@code raised <json>}) or 10 s pass ({@code
 * not-raised}). Args: endpoint port, JDBC URL, user, password, table.
 */
public final class PoolFeedbackApp {

  private PoolFeedbackApp() {}

  public static void main(String[] args) throws Exception {
    // What the test measures starts with the first call: not before the agent has woven it.
    AgentReady.awaitExport();
    String findingsUrl = "http://127.0.0.1:" + args[0] + "/faultline/findings";
    String table = args[4];
    HikariDataSource pool = new HikariDataSource();
    pool.setJdbcUrl(args[1]);
    pool.setUsername(args[2]);
    pool.setPassword(args[3]);
    pool.setPoolName("app-pool");
    pool.setMinimumIdle(1);
    pool.setMaximumPoolSize(20);
    try (Connection c = pool.getConnection()) {
      c.isValid(1); // starts the pool
    }
    Thread.sleep(2500); // the agent's sweep finds the started pool; its monitor reads it quiet
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService workers = Executors.newFixedThreadPool(24);
    List<Future<?>> work = new ArrayList<>();
    for (int t = 0; t < 24; t++) {
      int row = 1 + t % 3;
      work.add(
          workers.submit(
              () -> {
                while (!stop.get()) {
                  try (Connection c = pool.getConnection();
                      Statement s = c.createStatement()) {
                    c.setAutoCommit(false);
                    s.execute("UPDATE " + table + " SET v = v + 1 WHERE id = " + row);
                    s.execute("SELECT pg_sleep(0.05)");
                    c.commit();
                  }
                }
                return null;
              }));
    }
    HttpClient http = HttpClient.newHttpClient();
    String raised = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (raised == null && System.nanoTime() < deadline) {
      Thread.sleep(200);
      String body =
          http.send(
                  HttpRequest.newBuilder(URI.create(findingsUrl)).build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      if (body.contains("POOL_GROWTH_UNDER_CONTENTION")) {
        raised = body;
      }
    }
    stop.set(true);
    for (Future<?> f : work) {
      f.get(30, TimeUnit.SECONDS);
    }
    workers.shutdown();
    pool.close();
    System.out.println(raised == null ? "not-raised" : "raised " + raised.replace('\n', ' '));
  }
}
