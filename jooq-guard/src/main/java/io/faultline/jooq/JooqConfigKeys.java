package io.faultline.jooq;

import io.faultline.core.config.ConfigKey;
import io.faultline.core.config.ConfigKeyCatalog;
import java.time.Duration;
import java.util.List;

/**
 * The configuration keys of jooq-guard. The agent reads them from its configuration; the library
 * builder ({@link GuardedTransactionProvider.Builder#config}) reads the same names and uses the
 * same defaults.
 */
public final class JooqConfigKeys implements ConfigKeyCatalog {

  /** The guarded transaction provider's feature. */
  public static final String GUARD = "jooq.guard";

  /** The PostgreSQL health poller's feature. */
  public static final String HEALTH = "jooq.health";

  /** The guard's on/off switch. */
  public static final ConfigKey<Boolean> GUARD_ENABLED =
      ConfigKey.bool(
          GUARD,
          true,
          GUARD,
          "Guard jOOQ transactions: count transactions and savepoints, apply the nesting policy and"
              + " the timeouts.");

  /** What a nested transaction does. */
  public static final ConfigKey<NestingPolicy> NESTING =
      ConfigKey.enumKey(
          "jooq.nesting",
          NestingPolicy.class,
          NestingPolicy.WARN,
          GUARD,
          "What a transaction begun inside another does: ALLOW (count), WARN (count, log once per"
              + " call site, raise JOOQ_NESTED_TRANSACTION), FAIL (throw NestedTransactionException"
              + " before any savepoint exists) or FLATTEN (join the outer transaction without a"
              + " savepoint; an inner failure rolls back the whole).");

  /** Server-side statement_timeout. */
  public static final ConfigKey<Duration> STATEMENT_TIMEOUT =
      ConfigKey.duration(
          "jooq.statement-timeout",
          Duration.ZERO,
          GUARD,
          "PostgreSQL statement_timeout for the connections of guarded transactions, set once per"
              + " physical connection and again only when it changes. 0s leaves the server's"
              + " setting alone.");

  /** Deadline of a whole top-level transaction. */
  public static final ConfigKey<Duration> TRANSACTION_TIMEOUT =
      ConfigKey.duration(
          "jooq.transaction-timeout",
          Duration.ZERO,
          GUARD,
          "Deadline of a whole top-level transaction: PostgreSQL 17's transaction_timeout where"
              + " the server has it, otherwise a watchdog cancels the running statement and the"
              + " transaction fails with TransactionTimeoutException. 0s: no deadline.");

  /** Server-side lock_timeout. */
  public static final ConfigKey<Duration> LOCK_TIMEOUT =
      ConfigKey.duration(
          "jooq.lock-timeout",
          Duration.ZERO,
          GUARD,
          "PostgreSQL lock_timeout for guarded transactions' connections (how long a statement"
              + " waits for a row or table lock). 0s leaves the server's setting alone.");

  /** Server-side idle_in_transaction_session_timeout. */
  public static final ConfigKey<Duration> IDLE_IN_TRANSACTION_TIMEOUT =
      ConfigKey.duration(
          "jooq.idle-in-transaction-timeout",
          Duration.ZERO,
          GUARD,
          "PostgreSQL idle_in_transaction_session_timeout for guarded transactions' connections:"
              + " the server ends a session whose transaction sits idle this long. 0s leaves the"
              + " server's setting alone.");

  /** Savepoints in one transaction above which it is flagged. */
  public static final ConfigKey<Integer> SUBTRANSACTION_LIMIT =
      ConfigKey.integer(
          "jooq.subtransaction-limit",
          64,
          GUARD,
          "Savepoints in one top-level transaction above which JOOQ_SUBTRANSACTION_OVERFLOW is"
              + " raised: PostgreSQL caches 64 subtransactions per backend, beyond that every"
              + " snapshot reads pg_subtrans (GitLab 2021).");

  /** Bound on distinct call sites tracked. */
  public static final ConfigKey<Integer> MAX_CALL_SITES =
      ConfigKey.integer(
          "jooq.call-sites.max",
          256,
          GUARD,
          "Distinct nested-transaction call sites counted one by one; further ones are counted"
              + " together under 'other' so memory and findings stay bounded.");

  /** Budget of stack walks that name nested call sites. */
  public static final ConfigKey<Integer> CALL_SITE_WALKS =
      ConfigKey.integer(
          "jooq.call-sites.walks-per-second",
          10,
          GUARD,
          "Nested begins per second whose call site is found by a stack walk (docs/benchmarks.md"
              + " has what a walk costs). Below it every nested begin is walked and per-site counts"
              + " are exact; above it begins are sampled and each walked one counts for the ones"
              + " skipped, so per-site counts are estimates and their sum stays about the total."
              + " Bursts count against the second they fall in. 0 walks every nested begin.");

  /** Whether SQL text the guard shows keeps its literals. */
  public static final ConfigKey<SqlLiterals> SQL_LITERALS =
      ConfigKey.enumKey(
          "jooq.sql.literals",
          SqlLiterals.class,
          SqlLiterals.MASK,
          GUARD,
          "How SQL text appears in findings (JOOQ_SAVEPOINT_AFTER_ROW_LOCK's locking statement),"
              + " log lines and exception messages (StatementTimeoutException): mask replaces"
              + " every string, number and dollar-quoted literal with ? and drops comments,"
              + " keeping identifiers, keywords and parameters; keep shows the statement as it ran."
              + " Risk of keep: the literals, often personal data or tokens (e-mail addresses,"
              + " identity numbers, session tokens), then reach logs, the findings and the agent's"
              + " HTTP endpoints.");

  /** The health poller's on/off switch. */
  public static final ConfigKey<Boolean> HEALTH_ENABLED =
      ConfigKey.bool(
          HEALTH,
          true,
          HEALTH,
          "Poll PostgreSQL's own statistics (pg_stat_slru, pg_stat_activity, mxid_age) from a"
              + " separate connection.");

  /** How often the health poller runs. */
  public static final ConfigKey<Duration> HEALTH_INTERVAL =
      ConfigKey.duration(
          "jooq.health.interval",
          Duration.ofSeconds(15),
          HEALTH,
          "Time between two polls of PostgreSQL's statistics; SLRU hit ratios are computed over"
              + " this interval.");

  /** Age above which an open transaction is flagged. */
  public static final ConfigKey<Duration> LONG_TRANSACTION =
      ConfigKey.duration(
          "jooq.health.long-transaction",
          Duration.ofMinutes(5),
          HEALTH,
          "Age of the oldest open transaction above which PG_LONG_TRANSACTION is raised (it holds"
              + " back vacuum, and MultiXacts pile up behind it).");

  /** MultiXact member SLRU hit ratio below which it is flagged. */
  public static final ConfigKey<Double> SLRU_HIT_RATIO =
      ConfigKey.decimal(
          "jooq.health.multixact-hit-ratio",
          0.5,
          HEALTH,
          "Hit ratio of the MultiXact member SLRU cache over one poll interval below which"
              + " PG_MULTIXACT_SLRU_THRASH is raised.");

  /** Minimum SLRU activity for the hit ratio to be judged. */
  public static final ConfigKey<Integer> SLRU_MIN_ACCESSES =
      ConfigKey.integer(
          "jooq.health.multixact-min-accesses",
          100,
          HEALTH,
          "Block accesses (hits + reads) of the MultiXact member SLRU in one interval below which"
              + " its hit ratio is too thin to judge.");

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public JooqConfigKeys() {}

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(
        GUARD_ENABLED,
        NESTING,
        STATEMENT_TIMEOUT,
        TRANSACTION_TIMEOUT,
        LOCK_TIMEOUT,
        IDLE_IN_TRANSACTION_TIMEOUT,
        SUBTRANSACTION_LIMIT,
        MAX_CALL_SITES,
        CALL_SITE_WALKS,
        SQL_LITERALS,
        HEALTH_ENABLED,
        HEALTH_INTERVAL,
        LONG_TRANSACTION,
        SLRU_HIT_RATIO,
        SLRU_MIN_ACCESSES);
  }
}
