package io.faultline.jooq.timeout;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SessionSettingsTest {

  private static Connection fakeConnection() {
    return fakeConnection(false);
  }

  /** A connection that is its own physical connection; {@code equalToAll}: equals every object. */
  private static Connection fakeConnection(boolean equalToAll) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "unwrap" -> proxy;
                  case "hashCode" -> equalToAll ? 1 : System.identityHashCode(proxy);
                  case "equals" -> equalToAll || proxy == args[0];
                  default -> null;
                });
  }

  private static TimeoutSettings statement(long ms) {
    return new TimeoutSettings(Duration.ofMillis(ms), Duration.ZERO, Duration.ZERO, Duration.ZERO);
  }

  @Test
  void aSettingIsSentOncePerConnectionAndAgainOnlyWhenItChanges() {
    SessionSettings settings = new SessionSettings();
    Connection a = fakeConnection();
    Connection b = fakeConnection();

    assertThat(settings.plan(a, statement(5000), "")).isEqualTo("SET statement_timeout = 5000;");
    assertThat(settings.plan(a, statement(5000), "")).isEmpty();
    assertThat(settings.plan(b, statement(5000), "")).isEqualTo("SET statement_timeout = 5000;");
    assertThat(settings.plan(a, statement(1000), "")).isEqualTo("SET statement_timeout = 1000;");
    assertThat(settings.plan(a, statement(0), "")).isEqualTo("SET statement_timeout TO DEFAULT;");
    assertThat(settings.plan(a, statement(0), "")).isEmpty();
  }

  @Test
  void forgetMakesTheNextPlanSendItAgainAndLocalSettingsAlwaysGo() {
    SessionSettings settings = new SessionSettings();
    Connection a = fakeConnection();
    settings.plan(a, statement(5000), "");
    settings.forget(a);
    assertThat(settings.plan(a, statement(5000), "SET LOCAL statement_timeout = 9;"))
        .isEqualTo("SET statement_timeout = 5000;SET LOCAL statement_timeout = 9;");
    assertThat(settings.plan(a, TimeoutSettings.NONE, ""))
        .isEqualTo("SET statement_timeout TO DEFAULT;");
  }

  @Test
  void allThreeSessionSettingsGoInOneStatement() {
    SessionSettings settings = new SessionSettings();
    TimeoutSettings all =
        new TimeoutSettings(
            Duration.ofSeconds(5), Duration.ZERO, Duration.ofSeconds(2), Duration.ofMinutes(1));
    assertThat(settings.plan(fakeConnection(), all, ""))
        .isEqualTo(
            "SET statement_timeout = 5000;SET lock_timeout = 2000;"
                + "SET idle_in_transaction_session_timeout = 60000;");
  }

  @Test
  void aConnectionIsRememberedByIdentityNotByEquals() {
    SessionSettings settings = new SessionSettings();
    // Equal to every connection, as a careless wrapper might be: still two connections.
    Connection a = fakeConnection(true);
    Connection b = fakeConnection(true);
    settings.plan(a, statement(5000), "");
    assertThat(settings.plan(b, statement(5000), "")).isEqualTo("SET statement_timeout = 5000;");
    assertThat(settings.size()).isEqualTo(2);
  }

  @Test
  void aConnectionThePoolDroppedIsForgotten() throws InterruptedException {
    SessionSettings settings = new SessionSettings();
    Connection kept = fakeConnection();
    settings.plan(kept, statement(5000), "");
    WeakReference<Connection> dropped = planOnAConnectionNobodyKeeps(settings);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while ((dropped.get() != null || settings.size() > 1) && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(10);
    }
    assertThat(dropped.get()).as("the dropped connection was collected").isNull();
    assertThat(settings.size()).isEqualTo(1);
    assertThat(settings.plan(kept, statement(5000), "")).isEmpty();
  }

  private static WeakReference<Connection> planOnAConnectionNobodyKeeps(SessionSettings settings) {
    Connection connection = fakeConnection();
    settings.plan(connection, statement(5000), "");
    return new WeakReference<>(connection);
  }

  @Test
  void threadsSharingConnectionsSendEachSettingOncePerConnection() throws Exception {
    SessionSettings settings = new SessionSettings();
    List<Connection> connections = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      connections.add(fakeConnection());
    }
    ExecutorService workers = Executors.newFixedThreadPool(8);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Integer>> sent = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int first = t;
        sent.add(
            workers.submit(
                () -> {
                  start.await();
                  int sets = 0;
                  for (int i = 0; i < 10_000; i++) {
                    Connection c = connections.get((first + i) % connections.size());
                    if (!settings.plan(c, statement(5000), "").isEmpty()) {
                      sets++;
                    }
                  }
                  return sets;
                }));
      }
      start.countDown();
      int total = 0;
      for (Future<Integer> f : sent) {
        total += f.get(30, TimeUnit.SECONDS);
      }
      assertThat(total).isEqualTo(connections.size());
    } finally {
      workers.shutdownNow();
    }
  }
}
