package io.faultline.it.agent;

import io.faultline.it.servers.KafkaNode;
import io.faultline.it.servers.PostgresServer;
import java.net.URI;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

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

  /** How long the link to the broker drops every packet: past request.timeout.ms (10 s). */
  static final Duration LINK_DOWN_FOR = Duration.ofSeconds(20);

  /** The service's {@code jooq.lock-timeout} in the lock-wait case. */
  static final String LOCK_TIMEOUT = "2s";

  /** How long another session holds the row locks: several times the service's lock timeout. */
  static final Duration LOCKS_HELD_FOR = Duration.ofSeconds(10);

  /** How long PostgreSQL's port refuses connections: several health polls (every 2 s). */
  static final Duration REFUSED_FOR = Duration.ofSeconds(15);

  /** How long PostgreSQL stays stopped before it is started again. */
  static final Duration STOPPED_FOR = Duration.ofSeconds(5);

  /** The window-scaling finding's id. */
  static final String WINDOW_SCALING_OFF = "KAFKA_WINDOW_SCALING_OFF";

  /** The agent's recycle decisions meter. */
  static final String RECYCLES = "faultline_kafka_connection_recycles_decisions_total";

  private ChaosFaults() {}

  /**
   * Drops every packet to and from the broker's listener port in its network namespace for {@link
   * #LINK_DOWN_FOR}, then lets them through again: open connections stall (no reset, no FIN),
   * reconnects wait in SYN_SENT.
   */
  static void dropLink(KafkaNode node) throws Exception {
    int port = node.address().getPort();
    try (NftBlock block =
        NftBlock.inNamespaceOf(
            node, List.of("tcp dport " + port + " drop"), List.of("tcp sport " + port + " drop"))) {
      Thread.sleep(LINK_DOWN_FOR.toMillis());
      block.lift();
    }
  }

  /**
   * What the service's agent showed while its broker came back without window scaling.
   *
   * @param raisedAfter seconds from the broker's restart until the finding was active (-1: never)
   * @param activeBeforeLift whether it was active just before the rule was lifted
   * @param recycledWhileOn connections the agent recycled while the rule was on
   * @param recycledAfterLift connections it recycled after the rule was lifted, before the second
   *     restart
   * @param node1ClearedAfterLift seconds from the lift until no window-scaling or recycle finding
   *     about node 1 was active, without a restart (-1: not within 40 s)
   * @param leftForTheRestart the findings about the service still active at the second restart
   */
  record WindowScalingLost(
      double raisedAfter,
      boolean activeBeforeLift,
      double recycledWhileOn,
      double recycledAfterLift,
      double node1ClearedAfterLift,
      Set<String> leftForTheRestart) {}

  /**
   * Kills the broker and starts it again with {@link LostWindowScaleRule} on in its namespace from
   * the moment its container runs, so every reconnect of the service is made without window
   * scaling; waits until the agent says so (at most 60 s) and 15 s more (the recycler's samples;
   * what it recycles reconnects through the same rule), lifts the rule, gives the recycler 40 s to
   * replace node 1's connections with scaled ones, and restarts the broker once more so every
   * connection (the bootstrap ones too, which are never recycled) reconnects with a normal
   * handshake.
   */
  static WindowScalingLost restartWithoutWindowScaling(KafkaNode node, ChaosService service)
      throws Exception {
    LostWindowScaleRule[] rule = {null};
    try {
      node.kill();
      long restarted = System.nanoTime();
      node.start(() -> rule[0] = LostWindowScaleRule.on(node));
      double raisedAfter = -1;
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (System.nanoTime() < deadline) {
        if (!aboutWindowScaling(service, "").isEmpty()) {
          raisedAfter = (System.nanoTime() - restarted) / 1e9;
          break;
        }
        Thread.sleep(250);
      }
      Thread.sleep(15_000);
      boolean beforeLift =
          aboutWindowScaling(service, "").stream().anyMatch(f -> f.startsWith(WINDOW_SCALING_OFF));
      double recycledWhileOn = recycled(service);
      rule[0].lift();
      long lifted = System.nanoTime();
      double node1Cleared = -1;
      deadline = lifted + Duration.ofSeconds(40).toNanos();
      while (System.nanoTime() < deadline) {
        if (aboutWindowScaling(service, "→ node 1 ").isEmpty()) {
          node1Cleared = (System.nanoTime() - lifted) / 1e9;
          break;
        }
        Thread.sleep(250);
      }
      double recycledAfterLift = recycled(service) - recycledWhileOn;
      Set<String> left = aboutWindowScaling(service, "");
      killAndRestart(node);
      return new WindowScalingLost(
          raisedAfter, beforeLift, recycledWhileOn, recycledAfterLift, node1Cleared, left);
    } finally {
      if (rule[0] != null) {
        rule[0].close();
      }
    }
  }

  /** The active window-scaling and recycle findings whose subject contains {@code about}. */
  private static Set<String> aboutWindowScaling(ChaosService service, String about)
      throws InterruptedException {
    Set<String> out = new TreeSet<>();
    for (String f : service.activeFindings()) {
      if ((f.startsWith(WINDOW_SCALING_OFF) || f.startsWith("KAFKA_CONNECTION_RECYCLED"))
          && f.contains(about)) {
        out.add(f);
      }
    }
    return out;
  }

  private static double recycled(ChaosService service) throws InterruptedException {
    return service.metrics().sum(RECYCLES, Map.of("outcome", "recycled"));
  }

  /**
   * In a transaction of its own, inserts the middle-level rows {@code (t, 1)} of the service's next
   * few thousand transactions and holds them (uncommitted: each a row lock the service's insert of
   * that row waits for) for {@link #LOCKS_HELD_FOR}, then rolls back. The service's transactions
   * meanwhile insert their first row, open the middle level's savepoint and wait there until their
   * lock timeout. Returns how many rows were held.
   */
  static int holdRowLocks(PostgresServer postgres, ChaosService service) throws Exception {
    String table = ChaosService.table(service.name());
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      int from;
      try (ResultSet r = s.executeQuery("SELECT coalesce(max(tx), 0) FROM " + table)) {
        r.next();
        // Past the transactions in flight (two workers), whose rows a wait here would block on.
        from = r.getInt(1) + 20;
      }
      c.setAutoCommit(false);
      int held =
          s.executeUpdate(
              "INSERT INTO "
                  + table
                  + " SELECT g, 1 FROM generate_series("
                  + from
                  + ", "
                  + (from + 4_999)
                  + ") AS g");
      Thread.sleep(LOCKS_HELD_FOR.toMillis());
      c.rollback();
      return held;
    }
  }

  /**
   * Rejects (TCP reset) every packet this host sends to PostgreSQL's port for {@link #REFUSED_FOR}:
   * new connections are refused, open ones reset on their next packet. The rule is on the host,
   * ahead of Docker's NAT, and matches the server's published port only.
   */
  static void refusePostgres(PostgresServer postgres) throws Exception {
    int port = URI.create(postgres.jdbcUrl().substring("jdbc:".length())).getPort();
    try (NftBlock block =
        NftBlock.onHost(List.of(), List.of("tcp dport " + port + " reject with tcp reset"))) {
      Thread.sleep(REFUSED_FOR.toMillis());
      block.lift();
    }
    awaitAcceptingConnections(postgres);
  }

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
   * Stops PostgreSQL cleanly (a fast shutdown: every session ended, the service's transactions in
   * flight with them), keeps it down {@link #STOPPED_FOR}, starts it again; returns the seconds
   * from the start until it accepted connections.
   */
  static double stopAndStartPostgres(PostgresServer postgres) {
    return postgres.stopAndStart(STOPPED_FOR);
  }

  /**
   * Terminates the service's backends inside their transactions, {@code rounds} times 1 s apart,
   * and then every 100 ms for at most 10 s more while none was caught in its transaction (a look
   * once a second can miss them all); returns how many were terminated.
   */
  static int terminateBackends(PostgresServer postgres, ChaosService service, int rounds)
      throws Exception {
    int terminated = 0;
    for (int i = 0; i < rounds; i++) {
      terminated += terminateServiceBackends(postgres, service.name());
      Thread.sleep(1_000);
    }
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (terminated == 0 && System.nanoTime() < deadline) {
      terminated += terminateServiceBackends(postgres, service.name());
      Thread.sleep(100);
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
