package io.faultline.jooq;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.jooq.internal.GuardMetrics;
import io.faultline.jooq.internal.Ledger;
import io.faultline.jooq.internal.Level;
import io.faultline.jooq.internal.LevelKind;
import io.faultline.jooq.internal.RowLockSql;
import io.faultline.jooq.timeout.SessionSettings;
import io.faultline.jooq.timeout.StatementTimeoutException;
import io.faultline.jooq.timeout.TimeoutOverride;
import io.faultline.jooq.timeout.TimeoutSettings;
import io.faultline.jooq.timeout.TransactionTimeoutException;
import io.faultline.jooq.timeout.Watchdog;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.jooq.Configuration;
import org.jooq.ConnectionProvider;
import org.jooq.ExecuteContext;
import org.jooq.ExecuteListener;
import org.jooq.ExecuteListenerProvider;
import org.jooq.TransactionContext;
import org.jooq.impl.DefaultExecuteListenerProvider;

/**
 * The logic of a guarded transaction provider, as hooks around a delegate's {@code begin}, {@code
 * commit} and {@code rollback}: accounting, the nesting policy, row-lock tracking and timeouts.
 * {@link GuardedTransactionProvider} calls it around any provider; an agent's advice on jOOQ's own
 * providers calls the same hooks, in the same order:
 *
 * <pre>{@code
 * if (guard.beginEnter(ctx)) { try { delegate.begin(ctx); } catch (Throwable t) { guard.beginExit(ctx, t); throw t; } }
 * guard.beginExit(ctx, null);          // also after a skipped begin
 * if (guard.commitEnter(ctx)) { ... delegate.commit(ctx) ... } guard.commitExit(ctx, thrownOrNull);
 * if (guard.rollbackEnter(ctx)) { ... delegate.rollback(ctx) ... } guard.rollbackExit(ctx, thrownOrNull);
 * }</pre>
 *
 * <p>{@code beginEnter} returns false for a level the delegate must not see (flattened), and throws
 * {@link NestedTransactionException} under {@link NestingPolicy#FAIL}; {@code commitEnter} may
 * throw {@link FlattenedRollbackException} or {@link TransactionTimeoutException} for a top-level
 * transaction that must not commit (jOOQ then rolls it back). Nothing else here throws: internal
 * failures are logged and counted in {@link #internalErrors()}.
 *
 * <p>Per-transaction state lives in the transaction's {@link Configuration#data()} (jOOQ copies it
 * into every configuration derived inside the transaction) and, for statements that run on another
 * configuration, in a thread-local stack.
 */
public final class TransactionGuard {

  private static final System.Logger LOG = System.getLogger(TransactionGuard.class.getName());
  private static final ThreadLocal<ArrayDeque<Ledger>> ON_THREAD =
      ThreadLocal.withInitial(ArrayDeque::new);

  private final NestingPolicy policy;
  private final TimeoutSettings timeouts;
  private final boolean savepoints;
  private final int subtransactionLimit;
  private final Findings findings;
  private final GuardMetrics metrics = new GuardMetrics();
  private final CallSiteCounts nestedSites;
  private final SessionSettings sessionSettings = new SessionSettings();
  private final AtomicLong internalErrors = new AtomicLong();
  private final ExecuteListener listener = new StatementListener();
  private final ExecuteListenerProvider listenerProvider =
      new DefaultExecuteListenerProvider(listener);

  TransactionGuard(
      NestingPolicy policy,
      TimeoutSettings timeouts,
      boolean savepoints,
      int subtransactionLimit,
      int maxCallSites,
      Findings findings,
      MeterRegistry registry) {
    this.policy = Objects.requireNonNull(policy, "policy");
    this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
    this.savepoints = savepoints;
    this.subtransactionLimit = subtransactionLimit;
    this.findings = findings;
    this.nestedSites = new CallSiteCounts(maxCallSites);
    if (registry != null) {
      metrics.bindTo(registry);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Hooks

  /**
   * Before the delegate's begin. Returns whether the delegate should begin this level.
   *
   * @throws NestedTransactionException under {@link NestingPolicy#FAIL} for a nested level
   */
  public boolean beginEnter(TransactionContext ctx) {
    return beginEnter(ctx, savepoints);
  }

  /**
   * {@link #beginEnter(TransactionContext)} for a provider whose nesting behaviour is known per
   * call: an agent guards every jOOQ provider of a class loader with one guard, and {@code
   * DefaultTransactionProvider(nested = false)} joins where the others make savepoints.
   *
   * @param delegateSavepoints whether the provider about to begin makes a nested level a savepoint
   * @throws NestedTransactionException under {@link NestingPolicy#FAIL} for a nested level
   */
  public boolean beginEnter(TransactionContext ctx, boolean delegateSavepoints) {
    Ledger ledger;
    CallSite site;
    try {
      ledger = ledgerOf(ctx.configuration());
      site = CallSite.current();
      if (ledger == null) {
        ledger = new Ledger();
        ctx.configuration().data(Ledger.DATA_KEY, ledger);
        ON_THREAD.get().push(ledger);
        ledger.push(LevelKind.TOP, site);
        metrics.recordDepth(1);
        return true;
      }
    } catch (RuntimeException e) {
      internalError(e);
      return true;
    }
    return nestedBegin(ledger, site, delegateSavepoints);
  }

  private boolean nestedBegin(Ledger ledger, CallSite site, boolean delegateSavepoints) {
    int depth = ledger.depth() + 1;
    CallSite counted = CallSite.UNKNOWN;
    boolean first = false;
    try {
      CallSiteCounts.Counted c = nestedSites.increment(site);
      counted = c.site();
      first = c.first();
      metrics.recordDepth(depth);
    } catch (RuntimeException e) {
      internalError(e);
    }
    switch (policy) {
      case FAIL:
        ledger.push(LevelKind.REFUSED, site);
        metrics.nestedRefused.increment();
        if (first) {
          reportNested(ledger, counted, depth);
        }
        throw new NestedTransactionException(ledger.topCallSite(), site, depth);
      case FLATTEN:
        ledger.push(LevelKind.FLATTENED, site);
        metrics.nestedFlattened.increment();
        return false;
      case WARN:
        if (first) {
          reportNested(ledger, counted, depth);
        }
      // fall through: WARN lets it happen like ALLOW
      default:
        ledger.push(delegateSavepoints ? LevelKind.SAVEPOINT : LevelKind.JOIN, site);
        metrics.nestedAllowed.increment();
        return true;
    }
  }

  private void reportNested(Ledger ledger, CallSite site, int depth) {
    if (policy == NestingPolicy.WARN) {
      LOG.log(
          System.Logger.Level.WARNING,
          "faultline: nested jOOQ transaction (a SAVEPOINT) begun at {0} inside the transaction"
              + " begun at {1}; logged once per call site (jooq.nesting=WARN)",
          site,
          ledger.topCallSite());
    }
    raise(
        Finding.of(JooqFindingTypes.NESTED_TRANSACTION, site.toString())
            .message(
                "a transaction is begun at "
                    + site
                    + " inside the one begun at "
                    + ledger.topCallSite()
                    + " (jooq.nesting="
                    + policy
                    + ")")
            .evidence("outerCallSite", ledger.topCallSite().toString())
            .evidence("depth", depth)
            .evidence("policy", policy.name())
            .build());
  }

  /**
   * After the delegate's begin (or instead of it, when {@link #beginEnter} returned false); {@code
   * thrown} is what the delegate threw, or null.
   */
  public void beginExit(TransactionContext ctx, Throwable thrown) {
    try {
      Ledger ledger = ledgerOf(ctx.configuration());
      if (ledger == null) {
        return;
      }
      Level level = ledger.peek();
      if (level == null) {
        return;
      }
      if (thrown != null) {
        level.beginFailed = true;
        return;
      }
      switch (level.kind()) {
        case TOP:
          installListener(ctx.configuration());
          applyTimeouts(ctx, ledger);
          break;
        case SAVEPOINT:
          savepointCreated(ledger, level);
          break;
        default:
          break;
      }
    } catch (RuntimeException e) {
      internalError(e);
    }
  }

  private void savepointCreated(Ledger ledger, Level level) {
    metrics.savepointsCreated.increment();
    int count = ledger.savepointCreated();
    if (ledger.isRowLocked()) {
      raise(
          Finding.of(JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK, level.callSite().toString())
              .message(
                  "a savepoint is begun at "
                      + level.callSite()
                      + " after the transaction begun at "
                      + ledger.topCallSite()
                      + " locked rows with: "
                      + abbreviate(ledger.rowLockSql()))
              .evidence("outerCallSite", ledger.topCallSite().toString())
              .evidence("lockingStatement", abbreviate(ledger.rowLockSql()))
              .build());
    }
    if (count > subtransactionLimit && !ledger.overflowReported()) {
      ledger.overflowReported(true);
      raise(
          Finding.of(JooqFindingTypes.SUBTRANSACTION_OVERFLOW, ledger.topCallSite().toString())
              .message(
                  "the transaction begun at "
                      + ledger.topCallSite()
                      + " created more than "
                      + subtransactionLimit
                      + " savepoints")
              .evidence("savepoints", count)
              .evidence("limit", subtransactionLimit)
              .build());
    }
  }

  /**
   * Before the delegate's commit. Returns whether the delegate should commit this level.
   *
   * @throws FlattenedRollbackException when a flattened inner level failed: the top level must roll
   *     back
   * @throws TransactionTimeoutException when the top level's deadline passed
   */
  public boolean commitEnter(TransactionContext ctx) {
    Ledger ledger = safeLedger(ctx);
    if (ledger == null) {
      return true;
    }
    Level level = ledger.peek();
    if (level == null) {
      return true;
    }
    switch (level.kind()) {
      case FLATTENED:
      case REFUSED:
        return false;
      case TOP:
        if (ledger.deadlineExpired()) {
          countDeadline(ledger);
          level.commitFailed = true;
          throw new TransactionTimeoutException(
              ledger.topCallSite().toString(), deadlineOf(ledger), null);
        }
        if (ledger.failedFlattenedSite() != null) {
          level.commitFailed = true;
          throw new FlattenedRollbackException(ledger.topCallSite(), ledger.failedFlattenedSite());
        }
        return true;
      default:
        return true;
    }
  }

  /** After the delegate's commit (or instead of it); {@code thrown} is what it threw, or null. */
  public void commitExit(TransactionContext ctx, Throwable thrown) {
    try {
      Ledger ledger = ledgerOf(ctx.configuration());
      if (ledger == null) {
        return;
      }
      Level level = ledger.peek();
      if (level == null) {
        return;
      }
      if (thrown != null) {
        // jOOQ rolls this level back next; the rollback ends it.
        level.commitFailed = true;
        return;
      }
      ledger.pop();
      if (level.kind() == LevelKind.SAVEPOINT) {
        metrics.savepointsReleased.increment();
      } else if (level.kind() == LevelKind.TOP) {
        metrics.committed.increment();
        end(ctx.configuration(), ledger, true);
      }
    } catch (RuntimeException e) {
      internalError(e);
    }
  }

  /** Before the delegate's rollback. Returns whether the delegate should roll back this level. */
  public boolean rollbackEnter(TransactionContext ctx) {
    Ledger ledger = safeLedger(ctx);
    if (ledger == null) {
      return true;
    }
    Level level = ledger.peek();
    if (level == null) {
      return true;
    }
    if (level.kind() == LevelKind.FLATTENED) {
      ledger.flattenedFailed(level.callSite());
      return false;
    }
    if (level.kind() == LevelKind.REFUSED) {
      return false;
    }
    if (level.kind() == LevelKind.SAVEPOINT && level.beginFailed) {
      // No savepoint exists; rolling back would undo the outer level's savepoint instead.
      return false;
    }
    return true;
  }

  /** After the delegate's rollback (or instead of it); {@code thrown} is what it threw, or null. */
  public void rollbackExit(TransactionContext ctx, Throwable thrown) {
    try {
      Ledger ledger = ledgerOf(ctx.configuration());
      if (ledger == null) {
        return;
      }
      Level level = ledger.pop();
      if (level == null) {
        return;
      }
      if (level.kind() == LevelKind.SAVEPOINT && !level.beginFailed) {
        metrics.savepointsRolledBack.increment();
      } else if (level.kind() == LevelKind.TOP) {
        if (level.beginFailed || level.commitFailed || thrown != null) {
          metrics.failed.increment();
        } else {
          metrics.rolledBack.increment();
        }
        end(ctx.configuration(), ledger, false);
      }
    } catch (RuntimeException e) {
      internalError(e);
    }
  }

  private void end(Configuration configuration, Ledger ledger, boolean committed) {
    ledger.cancelDeadline();
    ledger.running(null);
    metrics.recordSavepointsPerTransaction(ledger.savepointsCreated());
    if (!committed && ledger.settingsSent() && ledger.connection() != null) {
      // A SET inside a transaction that rolled back is undone by the server.
      sessionSettings.forget(ledger.connection());
    }
    configuration.data().remove(Ledger.DATA_KEY);
    ON_THREAD.get().remove(ledger);
  }

  // ---------------------------------------------------------------------------------------------
  // Timeouts

  private void applyTimeouts(TransactionContext ctx, Ledger ledger) {
    TimeoutOverride override = TimeoutOverride.of(ctx.configuration());
    Duration deadline = timeouts.transaction();
    Duration statement = timeouts.statement();
    String local = "";
    if (override != null) {
      if (override.transactionTimeout() != null) {
        deadline = override.transactionTimeout();
      }
      if (override.statementTimeout() != null) {
        statement = override.statementTimeout();
        local = "SET LOCAL statement_timeout = " + statement.toMillis() + ";";
      }
    }
    ledger.statementTimeout(statement);
    if (!timeouts.hasSessionSettings() && local.isEmpty() && deadline.isZero()) {
      return;
    }
    ConnectionProvider provider = ctx.configuration().connectionProvider();
    Connection connection = null;
    try {
      connection = provider.acquire();
      boolean serverDeadline = !deadline.isZero() && serverMajor(connection) >= 17;
      if (serverDeadline) {
        local += "SET LOCAL transaction_timeout = " + deadline.toMillis() + ";";
      }
      String sql = sessionSettings.plan(connection, timeouts, local);
      ledger.connection(SessionSettings.physical(connection), !sql.isEmpty());
      if (!sql.isEmpty()) {
        try {
          SessionSettings.execute(connection, sql);
        } catch (SQLException e) {
          sessionSettings.forget(connection);
          LOG.log(
              System.Logger.Level.WARNING,
              "faultline: could not apply the timeouts ({0}): {1}",
              sql,
              e.getMessage());
        }
      }
      if (!deadline.isZero() && !serverDeadline) {
        Duration timeout = deadline;
        ledger.deadline(Watchdog.schedule(timeout, ledger::expire), timeout);
      } else if (serverDeadline) {
        ledger.deadline(null, deadline);
      }
    } finally {
      if (connection != null) {
        provider.release(connection);
      }
    }
  }

  private static int serverMajor(Connection connection) {
    try {
      DatabaseMetaData meta = connection.getMetaData();
      return meta.getDatabaseMajorVersion();
    } catch (SQLException | RuntimeException e) {
      return 0;
    }
  }

  private static Duration deadlineOf(Ledger ledger) {
    return ledger.deadlineTimeout();
  }

  private void countDeadline(Ledger ledger) {
    if (ledger.claimDeadlineCount()) {
      metrics.transactionTimeouts.increment();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Statements

  private void installListener(Configuration configuration) {
    ExecuteListenerProvider[] current = configuration.executeListenerProviders();
    for (ExecuteListenerProvider p : current) {
      if (p == listenerProvider) {
        return;
      }
    }
    ExecuteListenerProvider[] next = java.util.Arrays.copyOf(current, current.length + 1);
    next[current.length] = listenerProvider;
    configuration.set(next);
  }

  /**
   * The listener that tracks row locks, the running statement (for the deadline) and translates
   * timeouts. Guarded transactions get it automatically: {@link #beginExit} adds it to the
   * transaction's configuration. Add it to your own configuration only when statements run on
   * another one, e.g. {@code ThreadLocalTransactionProvider}'s {@code dsl.transaction(() -> ...)}
   * lambdas (see {@link GuardedThreadLocalTransactionProvider}).
   */
  public ExecuteListenerProvider executeListenerProvider() {
    return listenerProvider;
  }

  private final class StatementListener implements ExecuteListener {

    private static final long serialVersionUID = 1L;

    @Override
    public void executeStart(ExecuteContext ctx) {
      Ledger ledger = safeStatementLedger(ctx.configuration());
      if (ledger == null) {
        return;
      }
      if (ledger.deadlineExpired()) {
        countDeadline(ledger);
        throw new TransactionTimeoutException(
            ledger.topCallSite().toString(), ledger.deadlineTimeout(), null);
      }
      try {
        ledger.running(ctx.statement());
        if (RowLockSql.locksRows(ctx.sql())) {
          ledger.rowLocked(ctx.sql());
        }
      } catch (RuntimeException e) {
        internalError(e);
      }
    }

    @Override
    public void executeEnd(ExecuteContext ctx) {
      Ledger ledger = safeStatementLedger(ctx.configuration());
      if (ledger != null) {
        ledger.running(null);
      }
    }

    @Override
    public void exception(ExecuteContext ctx) {
      Ledger ledger = safeStatementLedger(ctx.configuration());
      if (ledger == null) {
        return;
      }
      try {
        ledger.running(null);
        translate(ctx, ledger);
      } catch (RuntimeException e) {
        internalError(e);
      }
    }
  }

  private void translate(ExecuteContext ctx, Ledger ledger) {
    if (ctx.exception() instanceof TransactionTimeoutException) {
      return;
    }
    SQLException sql = ctx.sqlException();
    String state = sql == null ? null : sql.getSQLState();
    String message = sql == null || sql.getMessage() == null ? "" : sql.getMessage();
    if (ledger.deadlineExpired() || "25P04".equals(state)) {
      countDeadline(ledger);
      ctx.exception(
          new TransactionTimeoutException(
              ledger.topCallSite().toString(), ledger.deadlineTimeout(), ctx.exception()));
    } else if ("57014".equals(state) && message.contains("statement timeout")) {
      metrics.statementTimeouts.increment();
      Duration set = ledger.statementTimeout();
      ctx.exception(
          new StatementTimeoutException(ctx.sql(), set.isZero() ? null : set, ctx.exception()));
    } else if ("55P03".equals(state) && message.contains("lock timeout")) {
      metrics.lockTimeouts.increment();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Reading

  /** The counts so far. */
  public GuardStats stats() {
    return new GuardStats(
        metrics.committed.sum(),
        metrics.rolledBack.sum(),
        metrics.failed.sum(),
        metrics.savepointsCreated.sum(),
        metrics.savepointsReleased.sum(),
        metrics.savepointsRolledBack.sum(),
        metrics.nestedAllowed.sum(),
        metrics.nestedFlattened.sum(),
        metrics.nestedRefused.sum(),
        metrics.statementTimeouts.sum(),
        metrics.transactionTimeouts.sum(),
        metrics.lockTimeouts.sum());
  }

  /** Nested transactions counted per call site (bounded; the overflow is under {@code other}). */
  public Map<CallSite, Long> nestedCallSites() {
    return nestedSites.snapshot();
  }

  /** Transaction levels open on the calling thread in guarded transactions; 0 when none. */
  public static int openLevelsOnThisThread() {
    int levels = 0;
    for (Ledger ledger : ON_THREAD.get()) {
      levels += ledger.depth();
    }
    return levels;
  }

  /** The nesting policy in force. */
  public NestingPolicy nestingPolicy() {
    return policy;
  }

  /** The timeouts in force. */
  public TimeoutSettings timeouts() {
    return timeouts;
  }

  /** Failures inside the guard that were logged and swallowed; zero unless there is a bug. */
  public long internalErrors() {
    return internalErrors.get();
  }

  /** Removes the meters this guard registered. */
  public void unbindMeters() {
    metrics.close();
  }

  // ---------------------------------------------------------------------------------------------

  private Ledger safeLedger(TransactionContext ctx) {
    try {
      return ledgerOf(ctx.configuration());
    } catch (RuntimeException e) {
      internalError(e);
      return null;
    }
  }

  private Ledger safeStatementLedger(Configuration configuration) {
    try {
      return statementLedgerOf(configuration);
    } catch (RuntimeException e) {
      internalError(e);
      return null;
    }
  }

  /** The transaction's ledger, from its configuration only: a hook must not adopt another's. */
  private static Ledger ledgerOf(Configuration configuration) {
    Object value = configuration == null ? null : configuration.data(Ledger.DATA_KEY);
    return value instanceof Ledger ledger ? ledger : null;
  }

  /**
   * The ledger of a statement: its configuration's, else the innermost guarded transaction on this
   * thread (statements run on a configuration outside the transaction, ThreadLocal style).
   */
  private static Ledger statementLedgerOf(Configuration configuration) {
    Ledger ledger = ledgerOf(configuration);
    return ledger != null ? ledger : ON_THREAD.get().peek();
  }

  private void raise(Finding finding) {
    if (findings != null) {
      findings.raise(finding);
    }
  }

  private static String abbreviate(String sql) {
    if (sql == null) {
      return "";
    }
    String oneLine = sql.replaceAll("\\s+", " ").trim();
    return oneLine.length() <= 160 ? oneLine : oneLine.substring(0, 160) + "...";
  }

  private void internalError(RuntimeException e) {
    long count = internalErrors.incrementAndGet();
    LOG.log(
        count <= 10 ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG,
        "faultline: internal error in the jOOQ transaction guard",
        e);
  }
}
