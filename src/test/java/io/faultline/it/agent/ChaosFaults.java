package io.faultline.it.agent;

import io.faultline.it.servers.KafkaNode;
import io.faultline.it.servers.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * The faults of the chaos tests and the soak, applied to a running {@link ChaosService} and its
 * servers. Each returns when the fault is over (the broker serves again, PostgreSQL accepts
 * connections, the pool's extra load is gone).
 */
final class ChaosFaults {

  /** How long the killed broker stays down: every client notices and retries the dead address. */
  static final Duration KILLED_FOR = Duration.ofSeconds(5);

  /** How long the broker is paused: past the service's request.timeout.ms (10 s). */
  static final Duration PAUSED_FOR = Duration.ofSeconds(30);

  private ChaosFaults() {}

  /** Kills the broker (SIGKILL), waits {@link #KILLED_FOR}, starts it again. */
  static void killAndRestart(KafkaNode node) throws InterruptedException {
    node.kill();
    Thread.sleep(KILLED_FOR.toMillis());
    node.start();
  }

  /** Pauses the broker (SIGSTOP or the cgroup freezer) for {@link #PAUSED_FOR}. */
  static void pause(KafkaNode node) throws InterruptedException {
    node.pause();
    try {
      Thread.sleep(PAUSED_FOR.toMillis());
    } finally {
      node.unpause();
    }
  }

  /**
   * Terminates the service's backends inside their transactions, {@code rounds} times 1 s apart;
   * returns how many were terminated.
   */
  static int terminateBackends(PostgresServer postgres, ChaosService service, int rounds)
      throws Exception {
    int terminated = 0;
    for (int i = 0; i < rounds; i++) {
      terminated += terminateServiceBackends(postgres, service.name());
      Thread.sleep(1_000);
    }
    return terminated;
  }

  /**
   * Kills (SIGKILL) a backend of the service in its middle level's {@code pg_sleep} (two levels
   * open, one savepoint outstanding), so the postmaster ends every session and recovers; returns
   * the seconds until PostgreSQL accepted connections again.
   */
  static double crashPostgres(PostgresServer postgres, ChaosService service) throws Exception {
    int pid = serviceBackend(postgres, service.name());
    long killed = System.nanoTime();
    postgres.killBackend(pid);
    awaitAcceptingConnections(postgres);
    return (System.nanoTime() - killed) / 1e9;
  }

  /** 16 more threads, each holding a connection 0.5 s for 10 s, on the service's pool. */
  static void exhaustPool(ChaosService service) throws InterruptedException {
    service.send("exhaust 16 10");
    Thread.sleep(11_000);
  }

  /** Terminates the backends running the service's transactions; returns how many. */
  private static int terminateServiceBackends(PostgresServer postgres, String name)
      throws SQLException {
    int count = 0;
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    + " WHERE pid <> pg_backend_pid() AND state = 'active'"
                    + " AND query LIKE '%/* "
                    + ChaosService.table(name)
                    + " */%'")) {
      while (r.next()) {
        if (r.getBoolean(1)) {
          count++;
        }
      }
    }
    return count;
  }

  /** The pid of a backend running the service's transaction, waiting for one (at most 30 s). */
  private static int serviceBackend(PostgresServer postgres, String name) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      try (Connection c = postgres.connect();
          Statement s = c.createStatement();
          ResultSet r =
              s.executeQuery(
                  "SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
                      + " AND state = 'active' AND query LIKE '%/* "
                      + ChaosService.table(name)
                      + " */%' LIMIT 1")) {
        if (r.next()) {
          return r.getInt(1);
        }
      }
      Thread.sleep(5);
    }
    throw new AssertionError("no backend of the service found in its transaction");
  }

  private static void awaitAcceptingConnections(PostgresServer postgres) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      try (Connection c = postgres.connect();
          Statement s = c.createStatement()) {
        s.execute("SELECT 1");
        return;
      } catch (SQLException e) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("PostgreSQL did not come back within 60 s", e);
        }
        Thread.sleep(100);
      }
    }
  }
}
