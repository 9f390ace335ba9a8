package io.faultline.jooq;

import io.faultline.core.Loggers;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Findings;
import io.faultline.core.metrics.CommonTags;
import io.faultline.core.metrics.LateRegistry;
import io.faultline.jooq.internal.SavepointBehaviour;
import io.faultline.jooq.timeout.TimeoutSettings;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import org.jooq.TransactionContext;
import org.jooq.TransactionProvider;
import org.jooq.impl.ThreadLocalTransactionProvider;

/**
 * A {@link TransactionProvider} that decorates another (jOOQ's {@code DefaultTransactionProvider},
 * nested or not, Spring Boot's {@code SpringTransactionProvider}, or your own) with a {@link
 * TransactionGuard}: it counts transactions and savepoints, applies the {@link NestingPolicy},
 * flags savepoints after row locks and more than 64 savepoints in one transaction, and applies
 * statement and transaction timeouts.
 *
 * <pre>{@code
 * TransactionProvider provider =
 *     GuardedTransactionProvider.wrap(new DefaultTransactionProvider(connectionProvider))
 *         .nesting(NestingPolicy.WARN)
 *         .statementTimeout(Duration.ofSeconds(5))
 *         .transactionTimeout(Duration.ofSeconds(60))
 *         .meterRegistry(registry)
 *         .tags("db", "orders")
 *         .findings(findings)
 *         .build();
 * DSLContext dsl = DSL.using(configuration.derive(provider));
 * }</pre>
 *
 * <p>For {@code ThreadLocalTransactionProvider} use {@link GuardedThreadLocalTransactionProvider}:
 * jOOQ recognises thread-local transactions by that class, so a decorator would break {@code
 * dsl.transaction(() -> ...)} lambdas that take no configuration.
 */
public final class GuardedTransactionProvider implements TransactionProvider {

  private static final System.Logger LOG = Loggers.get(GuardedTransactionProvider.class.getName());

  private final TransactionProvider delegate;
  private final TransactionGuard guard;
  private final Consumer<TransactionContext> begin;
  private final Consumer<TransactionContext> commit;
  private final Consumer<TransactionContext> rollback;

  GuardedTransactionProvider(TransactionProvider delegate, TransactionGuard guard) {
    this.delegate = delegate;
    this.guard = guard;
    this.begin = delegate::begin;
    this.commit = delegate::commit;
    this.rollback = delegate::rollback;
  }

  /**
   * Starts guarding {@code delegate}; null only for a guard alone ({@link Builder#buildGuard()}).
   */
  public static Builder wrap(TransactionProvider delegate) {
    return new Builder(delegate);
  }

  /**
   * Guards {@code delegate} with an existing {@code guard} (from {@link Builder#buildGuard()}) that
   * other transaction sources share, e.g. the listener on a Spring transaction manager the delegate
   * begins its transactions with: one set of meters, and one record per transaction whichever of
   * them begins its levels. The guard's savepoint setting must match the delegate.
   */
  public static GuardedTransactionProvider sharing(
      TransactionProvider delegate, TransactionGuard guard) {
    return new GuardedTransactionProvider(
        Objects.requireNonNull(delegate, "delegate"), Objects.requireNonNull(guard, "guard"));
  }

  @Override
  public void begin(TransactionContext ctx) {
    GuardedCalls.begin(guard, ctx, begin);
  }

  @Override
  public void commit(TransactionContext ctx) {
    GuardedCalls.commit(guard, ctx, commit);
  }

  @Override
  public void rollback(TransactionContext ctx) {
    GuardedCalls.rollback(guard, ctx, rollback);
  }

  /** The guard: counts, call sites, the listener. */
  public TransactionGuard guard() {
    return guard;
  }

  /** The provider this one decorates. */
  public TransactionProvider delegate() {
    return delegate;
  }

  /**
   * Configures a guard. Defaults are those of {@link JooqConfigKeys}; {@link #config} reads the
   * same keys from a {@link FaultlineConfig}.
   *
   * <p>The setters refuse a bad value at once: {@link NullPointerException} for null and {@link
   * IllegalArgumentException} for a value out of range, each naming the setter. {@link #config}
   * takes the configuration's values as they are: a bad key there was already reported as a {@link
   * io.faultline.core.config.ConfigProblem} and must not stop the application.
   */
  public static final class Builder {
    private final TransactionProvider delegate;
    private NestingPolicy nesting = JooqConfigKeys.NESTING.defaultValue();
    private Duration statementTimeout = JooqConfigKeys.STATEMENT_TIMEOUT.defaultValue();
    private Duration transactionTimeout = JooqConfigKeys.TRANSACTION_TIMEOUT.defaultValue();
    private Duration lockTimeout = JooqConfigKeys.LOCK_TIMEOUT.defaultValue();
    private Duration idleInTransactionTimeout =
        JooqConfigKeys.IDLE_IN_TRANSACTION_TIMEOUT.defaultValue();
    private int subtransactionLimit = JooqConfigKeys.SUBTRANSACTION_LIMIT.defaultValue();
    private int maxCallSites = JooqConfigKeys.MAX_CALL_SITES.defaultValue();
    private int callSiteWalksPerSecond = JooqConfigKeys.CALL_SITE_WALKS.defaultValue();
    private SqlLiterals sqlLiterals = JooqConfigKeys.SQL_LITERALS.defaultValue();
    private Boolean savepoints;
    private LateRegistry registry;
    private Tags meterTags = Tags.empty();
    private Findings findings;

    Builder(TransactionProvider delegate) {
      this.delegate = delegate;
    }

    /** Reads every {@code jooq.*} guard key from {@code config}. */
    public Builder config(FaultlineConfig config) {
      nesting = config.get(JooqConfigKeys.NESTING);
      statementTimeout = config.get(JooqConfigKeys.STATEMENT_TIMEOUT);
      transactionTimeout = config.get(JooqConfigKeys.TRANSACTION_TIMEOUT);
      lockTimeout = config.get(JooqConfigKeys.LOCK_TIMEOUT);
      idleInTransactionTimeout = config.get(JooqConfigKeys.IDLE_IN_TRANSACTION_TIMEOUT);
      subtransactionLimit = config.get(JooqConfigKeys.SUBTRANSACTION_LIMIT);
      maxCallSites = config.get(JooqConfigKeys.MAX_CALL_SITES);
      callSiteWalksPerSecond = config.get(JooqConfigKeys.CALL_SITE_WALKS);
      sqlLiterals = config.get(JooqConfigKeys.SQL_LITERALS);
      if (!config.isFeatureEnabled(JooqConfigKeys.GUARD)) {
        // Off (or misconfigured): count only, change nothing.
        nesting = NestingPolicy.ALLOW;
        statementTimeout =
            transactionTimeout = lockTimeout = idleInTransactionTimeout = Duration.ZERO;
      }
      return this;
    }

    /** The nesting policy ({@code jooq.nesting}, default WARN). */
    public Builder nesting(NestingPolicy nesting) {
      this.nesting = Objects.requireNonNull(nesting, "nesting");
      return this;
    }

    /** PostgreSQL statement_timeout ({@code jooq.statement-timeout}; zero: leave it alone). */
    public Builder statementTimeout(Duration timeout) {
      this.statementTimeout = notNegative(timeout, "statementTimeout");
      return this;
    }

    /** The transaction deadline ({@code jooq.transaction-timeout}; zero: none). */
    public Builder transactionTimeout(Duration timeout) {
      this.transactionTimeout = notNegative(timeout, "transactionTimeout");
      return this;
    }

    /** PostgreSQL lock_timeout ({@code jooq.lock-timeout}; zero: leave it alone). */
    public Builder lockTimeout(Duration timeout) {
      this.lockTimeout = notNegative(timeout, "lockTimeout");
      return this;
    }

    /** idle_in_transaction_session_timeout ({@code jooq.idle-in-transaction-timeout}). */
    public Builder idleInTransactionTimeout(Duration timeout) {
      this.idleInTransactionTimeout = notNegative(timeout, "idleInTransactionTimeout");
      return this;
    }

    /** Savepoints per transaction above which JOOQ_SUBTRANSACTION_OVERFLOW is raised (64). */
    public Builder subtransactionLimit(int limit) {
      this.subtransactionLimit = atLeast(1, limit, "subtransactionLimit");
      return this;
    }

    /** Distinct call sites counted one by one ({@code jooq.call-sites.max}). */
    public Builder maxCallSites(int max) {
      this.maxCallSites = atLeast(1, max, "maxCallSites");
      return this;
    }

    /**
     * Nested begins per second whose call site is found by a stack walk ({@code
     * jooq.call-sites.walks-per-second}); above it begins are sampled and the per-site counts
     * estimated. 0 walks every nested begin (exact counts, about 15 µs each under load).
     */
    public Builder callSiteWalksPerSecond(int walksPerSecond) {
      this.callSiteWalksPerSecond = atLeast(0, walksPerSecond, "callSiteWalksPerSecond");
      return this;
    }

    /**
     * How SQL text appears in findings, log lines and exception messages ({@code
     * jooq.sql.literals}): {@link SqlLiterals#MASK} (the default) replaces literals with {@code ?};
     * {@link SqlLiterals#KEEP} shows them, and with them whatever personal data or tokens the
     * statements carry.
     */
    public Builder sqlLiterals(SqlLiterals literals) {
      this.sqlLiterals = Objects.requireNonNull(literals, "sqlLiterals");
      return this;
    }

    /**
     * Whether the delegate makes nested transactions savepoints; detected for jOOQ's providers and
     * assumed for others. Set it for a custom provider that joins instead.
     */
    public Builder savepoints(boolean savepoints) {
      this.savepoints = savepoints;
      return this;
    }

    /** Where the meters go; none by default ({@link TransactionGuard#stats()} still counts). */
    public Builder meterRegistry(MeterRegistry registry) {
      this.registry = LateRegistry.of(Objects.requireNonNull(registry, "meterRegistry"));
      return this;
    }

    /**
     * Where the meters go, for a caller whose registry may not exist yet (the agent's, created
     * after the application's start-up): they are registered once it does, and the nesting depths
     * and savepoints per transaction recorded before that are in their summaries then.
     */
    public Builder lateMeterRegistry(LateRegistry registry) {
      this.registry = Objects.requireNonNull(registry, "lateMeterRegistry");
      return this;
    }

    /**
     * Tags added to every meter of this guard, so two guards on one registry (two databases, two
     * pools) are told apart: {@code tags("db", "orders")}. Replaces earlier calls.
     *
     * @param keyValues key, value, key, value...
     * @throws NullPointerException when {@code keyValues}, a key or a value is null
     * @throws IllegalArgumentException on an odd count, or a key the guard's meters set themselves
     *     ({@code outcome}, {@code kind})
     */
    public Builder tags(String... keyValues) {
      return tags(CommonTags.of("tags", keyValues));
    }

    /**
     * Tags added to every meter of this guard; see {@link #tags(String...)}.
     *
     * @throws NullPointerException when {@code tags} or one of them is null
     * @throws IllegalArgumentException on a key the guard's meters set themselves
     */
    public Builder tags(Iterable<Tag> tags) {
      this.meterTags =
          CommonTags.refuseDeclared("tags", CommonTags.of("tags", tags), new JooqMeters().meters());
      return this;
    }

    /** Where findings go; none by default. */
    public Builder findings(Findings findings) {
      this.findings = Objects.requireNonNull(findings, "findings");
      return this;
    }

    /** The guard alone, for an agent advice or {@link GuardedThreadLocalTransactionProvider}. */
    public TransactionGuard buildGuard() {
      return new TransactionGuard(
          nesting,
          new TimeoutSettings(
              statementTimeout, transactionTimeout, lockTimeout, idleInTransactionTimeout),
          savepoints != null
              ? savepoints
              : delegate == null || SavepointBehaviour.savepoints(delegate),
          subtransactionLimit,
          maxCallSites,
          callSiteWalksPerSecond,
          sqlLiterals,
          findings,
          registry,
          meterTags);
    }

    /** The guarded provider. */
    public GuardedTransactionProvider build() {
      Objects.requireNonNull(
          delegate,
          "delegate: build() needs the TransactionProvider to guard, given to wrap(...);"
              + " for a guard alone use buildGuard()");
      if (delegate instanceof ThreadLocalTransactionProvider) {
        LOG.log(
            System.Logger.Level.WARNING,
            "faultline: guarding a ThreadLocalTransactionProvider with a decorator: jOOQ then no"
                + " longer recognises it, and dsl.transaction(() -> ...) lambdas without a"
                + " Configuration fail. Use GuardedThreadLocalTransactionProvider instead.");
      }
      return new GuardedTransactionProvider(delegate, buildGuard());
    }

    private static Duration notNegative(Duration timeout, String name) {
      Objects.requireNonNull(timeout, name);
      if (timeout.isNegative()) {
        throw new IllegalArgumentException(
            name + " must not be negative (zero leaves it unset), was " + timeout);
      }
      return timeout;
    }

    private static int atLeast(int min, int value, String name) {
      if (value < min) {
        throw new IllegalArgumentException(name + " must be at least " + min + ", was " + value);
      }
      return value;
    }
  }
}
