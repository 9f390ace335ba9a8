package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.it.servers.Brokers;
import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.KafkaNode;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.it.servers.RequiresDocker;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Faults while a service works ({@link ChaosService}: an idempotent producer, a consumer and jOOQ
 * transactions with nested savepoints, the agent attached with every feature on): a broker killed
 * and restarted, a broker paused for longer than the request timeout, the link to the broker
 * dropping every packet for longer than the request timeout, the broker restarted with SYN cookies
 * forced and SYN timestamps stripped (reconnects without window scaling, which the agent must
 * report), PostgreSQL backends terminated under guarded transactions, PostgreSQL crash-restarted,
 * stopped and started, and refusing connections, a row lock held past the service's {@code
 * jooq.lock-timeout}, the connection pool exhausted. For each, the application's outcome is the one
 * it has without the agent (every acked record consumed exactly once; every committed transaction
 * in the database, nothing of one rolled back), the agent's bookkeeping stays exact (savepoints
 * created = released + rolled back; every top-level transaction counted once; requests timed again
 * after the fault), it suppressed no error of its own, and every finding about the service the
 * fault raised is cleared once it is over (the host doctor's are only reported). Each prints a
 * {@code CHAOS} line with its figures (see docs/reliability.md). The default suite runs three cases
 * (a broker killed, PostgreSQL's backends terminated, PostgreSQL crash-restarted: 80 s); {@code
 * -Dfaultline.chaos=all} runs every case (six minutes). The network faults need root and {@code
 * nft} (the broker's ones a broker container too) and are skipped without; stopping and starting
 * PostgreSQL needs the Docker mode.
 */
@ExtendWith(RealServers.class)
@Tag("chaos")
class ChaosTest {

  /** A case run only with {@code -Dfaultline.chaos=all}; the default suite runs a cut. */
  @Target(ElementType.METHOD)
  @Retention(RetentionPolicy.RUNTIME)
  @EnabledIfSystemProperty(
      named = "faultline.chaos",
      matches = "all",
      disabledReason = "a longer chaos case: -Dfaultline.chaos=all runs it")
  @interface LongCase {}

  /** How long the service runs before a fault and after its recovery. */
  private static final Duration STEADY = Duration.ofSeconds(5);

  /** How long a finding the fault raised may stay active after the recovery. */
  private static final Duration CLEARED_WITHIN = Duration.ofSeconds(60);

  @Test
  @Timeout(240)
  void brokerKilledAndRestarted(
      @Brokers(value = 1, dedicated = true) KafkaCluster kafka, PostgresServer postgres)
      throws Exception {
    KafkaNode node = kafka.node(1);
    Run run =
        underFault(kafka, postgres, "broker_kill", service -> ChaosFaults.killAndRestart(node));
    run.assertRequestsTimedAfterRecovery();
    // A reconnect to a dead broker waits in SYN_SENT, where TCP_INFO shows no options yet: no
    // window scaling to judge, so nothing about it to report.
    assertThat(run.raised())
        .as("window-scaling findings while the broker was down")
        .noneMatch(f -> f.startsWith("KAFKA_WINDOW_SCALING_OFF"));
  }

  @LongCase
  @Test
  @Timeout(240)
  void brokerPausedLongerThanTheRequestTimeout(
      @Brokers(value = 1, dedicated = true) KafkaCluster kafka, PostgresServer postgres)
      throws Exception {
    KafkaNode node = kafka.node(1);
    Run run = underFault(kafka, postgres, "broker_pause", service -> ChaosFaults.pause(node));
    run.assertRequestsTimedAfterRecovery();
    // A paused broker's kernel still acknowledges what arrives: slow, but not a stalled link.
    assertThat(run.raised())
        .as("findings while the broker was paused")
        .noneMatch(f -> f.startsWith("KAFKA_BROKER_LINK_STALLED"));
  }

  @Test
  @Timeout(180)
  void postgresBackendsTerminatedUnderGuardedTransactions(
      @Brokers(value = 1, dedicated = true) KafkaCluster kafka, PostgresServer postgres)
      throws Exception {
    int[] terminated = {0};
    Run run =
        underFault(
            kafka,
            postgres,
            "pg_terminate",
            service -> terminated[0] = ChaosFaults.terminateBackends(postgres, service, 8));
    System.out.printf(Locale.ROOT, "CHAOS pg_terminate: backends terminated=%d%n", terminated[0]);
    assertThat(terminated[0]).as("backends terminated inside a transaction").isPositive();
    assertThat(run.stopped.ledger().failed())
        .as("transactions the application saw fail before their commit")
        .isNotEmpty();
  }

  @Test
  @Timeout(180)
  void postgresCrashRestartedWithSavepointsOutstanding(
      @Brokers(value = 1, dedicated = true) KafkaCluster kafka, PostgresServer postgres)
      throws Exception {
    double[] back = {0};
    Run run =
        underFault(
            kafka,
            postgres,
            "pg_crash",
            service -> back[0] = ChaosFaults.crashPostgres(postgres, service));
    System.out.printf(
        Locale.ROOT, "CHAOS pg_crash: accepting connections again %.1fs after the kill%n", back[0]);
    // The killed backend may have been in its commit by then: that transaction is in doubt, not
    // failed before its commit (the ledger checks its rows either way).
    ChaosLedger ledger = run.stopped.ledger();
    assertThat(ledger.failed().size() + ledger.inDoubt().size())
        .as("transactions the application saw fail, before or in their commit")
        .isPositive();
  }

  @LongCase
  @Test
  @Timeout(180)
  void poolExhausted(
      @Brokers(value = 1, dedicated = true) KafkaCluster kafka, PostgresServer postgres)
      throws Exception {
    Run run =
        underFault(kafka, postgres, "pool_exhausted", service -> ChaosFaults.exhaustPool(service));
    assertThat(run.stopped.ledger().poolTimeouts())
        .as("transactions refused by the exhausted pool (it was exhausted)")
        .isPositive();
  }

  @LongCase
  @Test
  @Timeout(240)
  void linkToTheBrokerDroppedAndRestored(
      @Brokers(value = 1, dedicated = true) KafkaCluster kafka, PostgresServer postgres)
      throws Exception {
    assumeTrue(NftBlock.available(), "needs root, nsenter and nft");
    KafkaNode node = kafka.node(1);
    assumeTrue(node.isContainer(), "needs the broker in a container (its own namespace)");
    Run run = underFault(kafka, postgres, "link_drop", service -> ChaosFaults.dropLink(node));
    run.assertRequestsTimedAfterRecovery();
    // Sent, never acknowledged, retransmitted: the path, not the broker (underFault checked that
    // it cleared once the link was back).
    assertThat(run.raised())
        .as("findings while the link was down")
        .anyMatch(f -> f.startsWith("KAFKA_BROKER_LINK_STALLED"));
  }

  @LongCase
  @Test
  @Timeout(300)
  void brokerRestartedWithSynCookiesAndNoTimestamps(
      @Brokers(value = 1, dedicated = true) KafkaCluster kafka, PostgresServer postgres)
      throws Exception {
    assumeTrue(LostWindowScaleRule.available(), "needs root, nsenter and nft");
    KafkaNode node = kafka.node(1);
    assumeTrue(node.isContainer(), "needs the broker in a container (its own namespace)");
    ChaosFaults.WindowScalingLost[] seen = {null};
    // A recycle at most every 10 s per connection (5 min by default), so one can follow the lift.
    Run run =
        underFault(
            kafka,
            postgres,
            "wscale_lost",
            "kafka.recycle.min-interval=10s",
            service -> seen[0] = ChaosFaults.restartWithoutWindowScaling(node, service));
    ChaosFaults.WindowScalingLost w = seen[0];
    System.out.printf(
        Locale.ROOT,
        "CHAOS wscale_lost: %s active %.1fs after the restart; recycled while the rule was on=%.0f;"
            + " active before the lift=%s; recycled after the lift=%.0f; node 1's findings gone"
            + " %.1fs after the lift (-1: not within 40 s); left for the second restart: %s%n",
        ChaosFaults.WINDOW_SCALING_OFF,
        w.raisedAfter(),
        w.recycledWhileOn(),
        w.activeBeforeLift(),
        w.recycledAfterLift(),
        w.node1ClearedAfterLift(),
        w.leftForTheRestart());
    run.assertRequestsTimedAfterRecovery();
    assertThat(w.raisedAfter())
        .as("%s raised for the reconnects without window scaling", ChaosFaults.WINDOW_SCALING_OFF)
        .isPositive();
    // The service sends a few kB/s in small requests, each sent at once: the unscaled 64 KiB
    // window never held them back, so there is nothing to recycle (a delivery rate the
    // application limited is not running into the ceiling).
    assertThat(w.recycledWhileOn())
        .as("connections recycled while the rule was on, never held back by the window")
        .isZero();
    // Only a reconnect after the lift clears the finding; the second restart makes every
    // connection reconnect, and underFault checks every finding cleared.
    assertThat(w.activeBeforeLift())
        .as("%s active while every reconnect lost window scaling", ChaosFaults.WINDOW_SCALING_OFF)
        .isTrue();
  }

  @LongCase
  @Test
  @Timeout(180)
  void lockWaitPastTheLockTimeout(
      @Brokers(value = 1, dedicated = true) KafkaCluster kafka, PostgresServer postgres)
      throws Exception {
    int[] held = {0};
    Run run =
        underFault(
            kafka,
            postgres,
            "lock_timeout",
            "jooq.lock-timeout=" + ChaosFaults.LOCK_TIMEOUT,
            service -> held[0] = ChaosFaults.holdRowLocks(postgres, service));
    ChaosLedger ledger = run.stopped.ledger();
    double lockTimeouts = run.meter("faultline_jooq_timeouts_total", Map.of("kind", "lock"));
    System.out.printf(
        Locale.ROOT,
        "CHAOS lock_timeout: rows locked=%d; lock timeouts counted=%.0f, transactions failed=%d%n",
        held[0],
        lockTimeouts,
        ledger.failed().size());
    assertThat(ledger.failed()).as("transactions that failed waiting for the lock").isNotEmpty();
    assertThat(ledger.failures()).as("what they failed with").contains("PSQLException");
    // Nothing else failed them: every failure is one lock timeout, counted once.
    assertThat(lockTimeouts)
        .as("lock timeouts counted by the guard, against the transactions that failed")
        .isEqualTo(ledger.failed().size());
    // A statement failed, the transaction rolled back: the guard's rolled_back (its failed is a
    // commit or begin that failed).
    assertThat(run.meter("faultline_jooq_transactions_total", Map.of("outcome", "rolled_back")))
        .as("transactions the guard counted rolled back: on purpose, and the lock timeouts")
        .isEqualTo(ledger.rolledBack().size() + ledger.failed().size());
  }

  @LongCase
  @Test
  @Timeout(180)
  void postgresRefusesConnections(
      @Brokers(value = 1, dedicated = true) KafkaCluster kafka, PostgresServer postgres)
      throws Exception {
    assumeTrue(NftBlock.available(), "needs root and nft");
    Run run =
        underFault(kafka, postgres, "pg_refused", service -> ChaosFaults.refusePostgres(postgres));
    assertThat(run.raised())
        .as("findings raised while PostgreSQL refused connections")
        .anyMatch(f -> f.startsWith("PG_HEALTH_UNREACHABLE"));
    assertThat(run.stopped.ledger().failed())
        .as("transactions the application saw fail before their commit")
        .isNotEmpty();
  }

  @LongCase
  @Test
  @Timeout(240)
  @RequiresDocker("PostgreSQL in a container of its own, stopped and started at the same address")
  void postgresStoppedAndStarted(@Brokers(value = 1, dedicated = true) KafkaCluster kafka)
      throws Exception {
    try (PostgresServer postgres = RealServers.restartablePostgres()) {
      double[] back = {0};
      Run run =
          underFault(
              kafka,
              postgres,
              "pg_stop",
              service -> back[0] = ChaosFaults.stopAndStartPostgres(postgres));
      System.out.printf(
          Locale.ROOT,
          "CHAOS pg_stop: stopped for %ds, accepting connections %.1fs after its start%n",
          ChaosFaults.STOPPED_FOR.toSeconds(),
          back[0]);
      assertThat(run.stopped.ledger().failed())
          .as("transactions the application saw fail before their commit")
          .isNotEmpty();
      assertThat(run.raised())
          .as("findings raised while PostgreSQL was down")
          .anyMatch(f -> f.startsWith("PG_HEALTH_UNREACHABLE"));
    }
  }

  /** A fault applied to the running service; returns when it is over. */
  private interface Fault {
    void apply(ChaosService service) throws Exception;
  }

  /**
   * Runs the service, applies {@code fault} once it works, waits for it to recover, stops it and
   * checks the outcome and the agent's bookkeeping.
   */
  private static Run underFault(
      KafkaCluster kafka, PostgresServer postgres, String name, Fault fault) throws Exception {
    return underFault(kafka, postgres, name, "", fault);
  }

  /** {@link #underFault(KafkaCluster, PostgresServer, String, Fault)} with more agent settings. */
  private static Run underFault(
      KafkaCluster kafka, PostgresServer postgres, String name, String settings, Fault fault)
      throws Exception {
    try (ChaosService service = ChaosService.start(kafka, postgres, name, settings)) {
      service.awaitWorking();
      Thread.sleep(STEADY.toMillis());
      double timedBefore;
      Map<String, long[]> raised;
      double recovered;
      double cleared;
      long faultStart;
      long faultEnd;
      Set<String> baseline;
      Set<String> stillActive;
      try (FindingsWatch watch = new FindingsWatch(service)) {
        baseline = watch.baseline();
        faultStart = System.currentTimeMillis();
        fault.apply(service);
        faultEnd = System.currentTimeMillis();
        timedBefore = requestsTimedNode1(service.metrics());
        recovered = service.awaitRecoveredAfter(faultEnd, Duration.ofSeconds(90));
        Thread.sleep(STEADY.toMillis());
        long clearStart = System.nanoTime();
        Set<String> beyond = watch.serviceFindingsBeyondBaseline();
        while (!beyond.isEmpty() && System.nanoTime() - clearStart < CLEARED_WITHIN.toNanos()) {
          Thread.sleep(500);
          beyond = watch.serviceFindingsBeyondBaseline();
        }
        cleared = (System.currentTimeMillis() - faultEnd) / 1000.0;
        raised = watch.raised();
        stillActive = beyond;
      }
      ChaosService.Stopped stopped = service.stop();
      Run run = new Run(name, stopped, timedBefore, raised.keySet());
      run.print(faultEnd - faultStart, recovered, raised, faultStart, faultEnd, baseline);
      stopped.ledger().assertEveryAckedRecordConsumedOnce();
      stopped.ledger().assertDatabaseMatches(postgres, ChaosService.table(name));
      run.assertBookkeepingExact();
      assertThat(stillActive)
          .as(
              "findings about the service the fault raised still active %s s after it ended",
              cleared)
          .isEmpty();
      return run;
    }
  }

  private static double requestsTimedNode1(PrometheusText metrics) {
    return metrics.sum("faultline_kafka_request_phase_seconds_count", Map.of("node_id", "1"));
  }

  /** One fault's outcome. */
  private record Run(
      String name, ChaosService.Stopped stopped, double timedAtFaultEnd, Set<String> raised) {

    double meter(String name, Map<String, String> labels) {
      return stopped.metrics().sum(name, labels);
    }

    void assertBookkeepingExact() {
      ChaosLedger ledger = stopped.ledger();
      assertThat(meter("faultline_agent_errors_total", Map.of()))
          .as("errors the agent suppressed")
          .isZero();
      double created = savepoints("created");
      assertThat(created).as("savepoints created").isPositive();
      assertThat(savepoints("released") + savepoints("rolled_back"))
          .as("savepoints released + rolled back")
          .isEqualTo(created);
      assertThat(meter("faultline_jooq_transactions_total", Map.of()))
          .as(
              "top-level transactions the guard saw end, against the %d the service began",
              ledger.transactions())
          .isEqualTo(ledger.transactions());
      assertThat(meter("faultline_jooq_transactions_total", Map.of("outcome", "committed")))
          .as("committed transactions (the service's committed, plus at most its in-doubt ones)")
          .isBetween(
              (double) ledger.committed().size(),
              (double) ledger.committed().size() + ledger.inDoubt().size());
    }

    double savepoints(String outcome) {
      return meter("faultline_jooq_savepoints_total", Map.of("outcome", outcome));
    }

    void assertRequestsTimedAfterRecovery() {
      assertThat(meter("faultline_kafka_request_phase_seconds_count", Map.of("node_id", "1")))
          .as("request phases timed for node 1 after it recovered (none left hanging)")
          .isGreaterThan(timedAtFaultEnd);
    }

    void print(
        long faultMillis,
        double recovered,
        Map<String, long[]> raised,
        long faultStart,
        long faultEnd,
        Set<String> baseline) {
      List<String> findings = new ArrayList<>();
      raised.forEach(
          (f, t) ->
              findings.add(
                  String.format(
                      Locale.ROOT,
                      "%s first seen %+.1fs after the fault began, last seen %+.1fs after it ended",
                      f,
                      (t[0] - faultStart) / 1000.0,
                      (t[1] - faultEnd) / 1000.0)));
      System.out.printf(
          Locale.ROOT,
          "CHAOS %s: fault %.1fs, recovered (ack and commit) %.1fs after it ended; %s;"
              + " savepoints created=%.0f released=%.0f rolled_back=%.0f;"
              + " guard transactions committed=%.0f rolled_back=%.0f failed=%.0f;"
              + " agent errors=%.0f; findings raised: %s; baseline: %s%n",
          name,
          faultMillis / 1000.0,
          recovered,
          stopped.ledger().summary(),
          savepoints("created"),
          savepoints("released"),
          savepoints("rolled_back"),
          meter("faultline_jooq_transactions_total", Map.of("outcome", "committed")),
          meter("faultline_jooq_transactions_total", Map.of("outcome", "rolled_back")),
          meter("faultline_jooq_transactions_total", Map.of("outcome", "failed")),
          meter("faultline_agent_errors_total", Map.of()),
          findings.isEmpty() ? "none" : String.join("; ", findings),
          baseline);
    }
  }
}
