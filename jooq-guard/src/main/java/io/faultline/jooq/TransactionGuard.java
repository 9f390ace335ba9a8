package io.faultline.jooq;

import io.faultline.core.finding.Findings;
import io.faultline.core.metrics.LateRegistry;
import io.faultline.core.observe.Observations;
import io.faultline.jooq.internal.GuardMetrics;
import io.faultline.jooq.internal.Ledger;
import io.faultline.jooq.internal.Level;
import io.faultline.jooq.internal.LevelKind;
import io.faultline.jooq.timeout.TimeoutSettings;
import io.faultline.jooq.timeout.TransactionTimeoutException;
import io.micrometer.core.instrument.Tags;
import java.util.Map;
import java.util.Objects;
import org.jooq.Configuration;
import org.jooq.ExecuteListenerProvider;
import org.jooq.TransactionContext;

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
 * <p>Transactions a manager outside jOOQ begins (Spring's {@code @Transactional}) are told to the
 * same guard through {@link #managedBeginEnter}, {@link #managedBeginExit}, {@link
 * #managedCommitEnter} and {@link #managedEnd}, e.g. from a Spring {@code
 * TransactionExecutionListener}; a jOOQ transaction begun inside one is a nested level of it.
 *
 * <p>This class follows the levels of each transaction (its {@link Ledger}, found by {@link
 * Ledgers}) and hands each event to the class whose job it is: {@link NestingGate} (the policy),
 * {@link SavepointAccounting}, {@link RowLockDetector}, {@link TransactionTimeouts}, {@link
 * GuardExecuteListener} (statements) and {@link GuardFindings}.
 */
public final class TransactionGuard {

  private final boolean savepoints;
  private final SqlLiterals literals;
  private final GuardMetrics metrics = new GuardMetrics();
  private final GuardInternalErrors errors = new GuardInternalErrors();
  private final NestingGate nesting;
  private final CallSiteSampler callSiteSampler;
  private final SavepointAccounting savepointAccounting;
  private final TransactionTimeouts timeouts;
  private final GuardExecuteListener listener;

  TransactionGuard(
      NestingPolicy policy,
      TimeoutSettings timeouts,
      boolean savepoints,
      int subtransactionLimit,
      int maxCallSites,
      int callSiteWalksPerSecond,
      SqlLiterals literals,
      Findings findings,
      LateRegistry registry,
      Tags meterTags) {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(timeouts, "timeouts");
    Objects.requireNonNull(literals, "literals");
    this.savepoints = savepoints;
    this.literals = literals;
    GuardFindings reporter = new GuardFindings(findings, policy, literals);
    RowLockDetector rowLocks = new RowLockDetector(reporter);
    this.nesting = new NestingGate(policy, maxCallSites, metrics, reporter, errors);
    this.callSiteSampler = new CallSiteSampler(callSiteWalksPerSecond);
    this.savepointAccounting =
        new SavepointAccounting(metrics, rowLocks, reporter, subtransactionLimit);
    this.timeouts = new TransactionTimeouts(timeouts, metrics, literals);
    this.listener = new GuardExecuteListener(this.timeouts, rowLocks, errors);
    if (registry != null) {
      metrics.bindWhenReady(registry, meterTags);
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
    int weight;
    boolean adopted = false;
    Ledgers here = Ledgers.onThisThread();
    try {
      ledger = here.of(ctx.configuration());
      if (ledger == null) {
        Ledger managed = here.managed();
        if (managed == null) {
          ledger = here.open(ctx.configuration());
          // Its call site is found when first needed (Ledger.topCallSite), not walked here.
          ledger.push(LevelKind.TOP, null, 0);
          return providerCall(here);
        }
        // Begun inside a transaction Spring's transaction manager began (@Transactional): a
        // nested level of that transaction, whose ledger this configuration now carries.
        here.adopt(ctx.configuration(), managed);
        ledger = managed;
        adopted = true;
      }
      // FAIL throws with the call site: always walked.
      weight =
          nesting.policy() == NestingPolicy.FAIL
              ? callSiteSampler.always()
              : callSiteSampler.weight();
      site = weight > 0 ? CallSite.current() : null;
    } catch (RuntimeException e) {
      errors.record(e);
      return true;
    }
    boolean begin;
    try {
      begin = nesting.admit(ledger, site, weight, delegateSavepoints, false);
    } finally {
      if (adopted) {
        ledger.peek().markAdopted();
      }
    }
    return begin ? providerCall(here) : false;
  }

  /** Marks this thread inside a guarded provider's call to its delegate; returns true. */
  private static boolean providerCall(Ledgers here) {
    here.providerCall(true);
    return true;
  }

  /**
   * After the delegate's begin (or instead of it, when {@link #beginEnter} returned false); {@code
   * thrown} is what the delegate threw, or null.
   */
  public void beginExit(TransactionContext ctx, Throwable thrown) {
    Ledgers here = Ledgers.onThisThread();
    here.providerCall(false);
    try {
      Ledger ledger = here.of(ctx.configuration());
      Level level = ledger == null ? null : ledger.peek();
      if (level == null) {
        return;
      }
      if (thrown != null) {
        level.markBeginFailed();
        return;
      }
      if (level.kind() == LevelKind.TOP) {
        listener.installOn(ctx.configuration());
        timeouts.apply(ctx, ledger);
      } else if (level.kind() == LevelKind.SAVEPOINT) {
        savepointAccounting.created(ledger, level, false);
      }
    } catch (RuntimeException e) {
      errors.record(e);
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
    Ledgers here = Ledgers.onThisThread();
    Ledger ledger = safeLedger(here, ctx);
    Level level = ledger == null ? null : ledger.peek();
    if (level == null) {
      return true;
    }
    return switch (level.kind()) {
      case FLATTENED, REFUSED -> false;
      case TOP -> {
        timeouts.beforeCommit(ledger, level);
        if (ledger.failedFlattenedSite() != null) {
          level.markCommitFailed();
          throw new FlattenedRollbackException(ledger.topCallSite(), ledger.failedFlattenedSite());
        }
        yield providerCall(here);
      }
      default -> providerCall(here);
    };
  }

  /** After the delegate's commit (or instead of it); {@code thrown} is what it threw, or null. */
  public void commitExit(TransactionContext ctx, Throwable thrown) {
    Ledgers here = Ledgers.onThisThread();
    here.providerCall(false);
    try {
      Ledger ledger = here.of(ctx.configuration());
      Level level = ledger == null ? null : ledger.peek();
      if (level == null) {
        return;
      }
      if (thrown != null) {
        // jOOQ rolls this level back next; the rollback ends it.
        level.markCommitFailed();
        return;
      }
      String observedSite = observedSite(ledger, level);
      ledger.pop();
      forgetAdopted(here, ctx, level);
      if (level.kind() == LevelKind.SAVEPOINT) {
        savepointAccounting.released(ledger);
      } else if (level.kind() == LevelKind.TOP) {
        metrics.transactionCommitted(ledger);
        end(here, ctx.configuration(), ledger, true, observedSite);
      }
    } catch (RuntimeException e) {
      errors.record(e);
    }
  }

  /** Before the delegate's rollback. Returns whether the delegate should roll back this level. */
  public boolean rollbackEnter(TransactionContext ctx) {
    Ledgers here = Ledgers.onThisThread();
    Ledger ledger = safeLedger(here, ctx);
    Level level = ledger == null ? null : ledger.peek();
    if (level == null) {
      return true;
    }
    return switch (level.kind()) {
      case FLATTENED -> {
        ledger.flattenedFailed(level.callSite());
        yield false;
      }
      case REFUSED -> false;
      // After a failed begin no savepoint exists; rolling back would undo the outer level's.
      case SAVEPOINT -> !level.beginFailed() && providerCall(here);
      case TOP -> {
        try {
          timeouts.rollingBack(ledger);
        } catch (RuntimeException e) {
          errors.record(e);
        }
        yield providerCall(here);
      }
      default -> providerCall(here);
    };
  }

  /** After the delegate's rollback (or instead of it); {@code thrown} is what it threw, or null. */
  public void rollbackExit(TransactionContext ctx, Throwable thrown) {
    Ledgers here = Ledgers.onThisThread();
    here.providerCall(false);
    try {
      Ledger ledger = here.of(ctx.configuration());
      Level level = ledger == null ? null : ledger.peek();
      if (level == null) {
        return;
      }
      String observedSite = observedSite(ledger, level);
      ledger.pop();
      forgetAdopted(here, ctx, level);
      if (level.kind() == LevelKind.SAVEPOINT && !level.beginFailed()) {
        savepointAccounting.rolledBack(ledger);
      } else if (level.kind() == LevelKind.TOP) {
        if (level.beginFailed() || level.commitFailed() || thrown != null) {
          metrics.transactionFailed(ledger);
        } else {
          metrics.transactionRolledBack(ledger);
        }
        end(here, ctx.configuration(), ledger, false, observedSite);
      }
    } catch (RuntimeException e) {
      errors.record(e);
    }
  }

  /** An adopted level's configuration stops carrying the managed transaction's ledger. */
  private static void forgetAdopted(Ledgers here, TransactionContext ctx, Level level) {
    if (level.adopted()) {
      here.forgetAdopted(ctx.configuration());
    }
  }

  /** Ends a top level; {@code configuration} is null for a managed transaction's. */
  private void end(
      Ledgers here,
      Configuration configuration,
      Ledger ledger,
      boolean committed,
      String observedSite) {
    timeouts.transactionEnded(ledger);
    metrics.transactionEnded(ledger);
    here.close(configuration, ledger);
    if (observedSite != null) {
      Observations.transaction(
          observedSite,
          ledger.savepointsCreated(),
          ledger.maxDepth(),
          ledger.statements(),
          committed);
    }
  }

  /**
   * The top level's call site when {@code level} is the top one and a test tool listens (see {@link
   * Observations}); else null, so production pays no stack walk. Found before the level is popped:
   * the ledger finds it from its top level.
   */
  private static String observedSite(Ledger ledger, Level level) {
    if (level.kind() != LevelKind.TOP || !Observations.active()) {
      return null;
    }
    try {
      return ledger.topCallSite().toString();
    } catch (RuntimeException e) {
      // Must not keep the level from being popped.
      return CallSite.UNKNOWN.toString();
    }
  }

  private Ledger safeLedger(Ledgers here, TransactionContext ctx) {
    try {
      return here.of(ctx.configuration());
    } catch (RuntimeException e) {
      errors.record(e);
      return null;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Transactions a manager outside jOOQ begins

  /**
   * A transaction manager outside jOOQ (Spring's, for {@code @Transactional} and {@code
   * TransactionTemplate}) is about to begin a transaction on this thread: a new top-level one, or
   * ({@code nested}) a savepoint in the thread's open one. Call {@link #managedBeginExit} after it,
   * {@link #managedCommitEnter} before it commits, and {@link #managedEnd} when it has committed or
   * rolled back; the thread's ledger is the one jOOQ transactions and statements on the thread use
   * too, so a jOOQ transaction inside a managed one is a nested level of it, and row locks taken by
   * jOOQ statements count before its savepoints.
   *
   * <p>The nesting policy applies as for jOOQ's nested transactions, except that FLATTEN cannot
   * keep the manager from making the savepoint: it is reported as under WARN.
   *
   * @return the level's token, or null when there is nothing to follow: a guarded jOOQ provider is
   *     calling the manager itself (that level is counted there), or {@code nested} and no
   *     transaction is open on the thread
   * @throws NestedTransactionException under {@link NestingPolicy#FAIL} for a nested level, before
   *     the savepoint is made
   */
  public Object managedBeginEnter(boolean nested) {
    Ledgers here = Ledgers.onThisThread();
    if (here.inProviderCall()) {
      return null;
    }
    Ledger ledger;
    CallSite site;
    int weight;
    try {
      if (!nested) {
        ledger = here.openManaged();
        Level top = ledger.push(LevelKind.TOP, null, 0);
        return new ManagedLevel(ledger, top);
      }
      ledger = here.innermost();
      if (ledger == null) {
        return null;
      }
      weight =
          nesting.policy() == NestingPolicy.FAIL
              ? callSiteSampler.always()
              : callSiteSampler.weight();
      site = weight > 0 ? CallSite.current() : null;
    } catch (RuntimeException e) {
      errors.record(e);
      return null;
    }
    try {
      nesting.admit(ledger, site, weight, true, true);
    } catch (NestedTransactionException e) {
      // The manager will not end a level it never began.
      ledger.pop();
      throw e;
    }
    return new ManagedLevel(ledger, ledger.peek());
  }

  /**
   * After the manager began the level of {@code token} ({@link #managedBeginEnter}); {@code thrown}
   * is what it threw, or null. A failed begin ends the level here: the manager will not.
   */
  public void managedBeginExit(Object token, Throwable thrown) {
    if (!(token instanceof ManagedLevel managed)) {
      return;
    }
    try {
      if (thrown != null) {
        managed.level().markBeginFailed();
        managedEnd(token, false);
      } else if (managed.level().kind() == LevelKind.SAVEPOINT) {
        savepointAccounting.created(managed.ledger(), managed.level(), true);
      }
    } catch (RuntimeException e) {
      errors.record(e);
    }
  }

  /**
   * Before the manager commits the level of {@code token}. A top level in which a flattened jOOQ
   * transaction failed must not commit (its statements ran in this transaction and were not rolled
   * back): thrown from a Spring {@code TransactionExecutionListener}'s {@code beforeCommit}, Spring
   * rolls the transaction back and the caller gets the exception, as for a jOOQ top level.
   *
   * @throws FlattenedRollbackException when a flattened jOOQ transaction inside it failed
   */
  public void managedCommitEnter(Object token) {
    if (!(token instanceof ManagedLevel managed) || managed.level().kind() != LevelKind.TOP) {
      return;
    }
    CallSite failed = managed.ledger().failedFlattenedSite();
    if (failed != null) {
      throw new FlattenedRollbackException(managed.ledger().topCallSite(), failed);
    }
  }

  /**
   * The level of {@code token} committed ({@code committed}) or rolled back. Levels above it whose
   * end was never reported end with it; a level already ended is ignored.
   */
  public void managedEnd(Object token, boolean committed) {
    if (!(token instanceof ManagedLevel managed)) {
      return;
    }
    try {
      Ledger ledger = managed.ledger();
      Level level = managed.level();
      String observedSite = observedSite(ledger, level);
      if (!ledger.popTo(level)) {
        return;
      }
      if (level.kind() == LevelKind.SAVEPOINT && !level.beginFailed()) {
        if (committed) {
          savepointAccounting.released(ledger);
        } else {
          savepointAccounting.rolledBack(ledger);
        }
      } else if (level.kind() == LevelKind.TOP) {
        if (level.beginFailed()) {
          metrics.transactionFailed(ledger);
        } else if (committed) {
          metrics.transactionCommitted(ledger);
        } else {
          metrics.transactionRolledBack(ledger);
        }
        end(Ledgers.onThisThread(), null, ledger, committed, observedSite);
      }
    } catch (RuntimeException e) {
      errors.record(e);
    }
  }

  /** A managed transaction's level and the ledger it is in. */
  private record ManagedLevel(Ledger ledger, Level level) {}

  // ---------------------------------------------------------------------------------------------
  // Reading

  /**
   * The listener that tracks row locks, the running statement (for the deadline) and translates
   * timeouts. Guarded transactions get it automatically: {@link #beginExit} adds it to the
   * transaction's configuration. Add it to your own configuration only when statements run on
   * another one, e.g. {@code ThreadLocalTransactionProvider}'s {@code dsl.transaction(() -> ...)}
   * lambdas (see {@link GuardedThreadLocalTransactionProvider}).
   */
  public ExecuteListenerProvider executeListenerProvider() {
    return listener.provider();
  }

  /** The counts so far. */
  public GuardStats stats() {
    return metrics.stats();
  }

  /**
   * Nested transactions counted per call site (bounded; the overflow is under {@code other}). Exact
   * while nested begins stay within {@code jooq.call-sites.walks-per-second}; above it each count
   * is an estimate from sampled begins (see {@link #callSiteWalks()}), and the exact total is in
   * {@link #stats()}.
   */
  public Map<CallSite, Long> nestedCallSites() {
    return nesting.callSites();
  }

  /**
   * Nested begins whose call site was found by a stack walk: all of them (FAIL, or a budget of 0),
   * or about {@code jooq.call-sites.walks-per-second} when more begin.
   */
  public long callSiteWalks() {
    return callSiteSampler.walks();
  }

  /** Transaction levels open on the calling thread in guarded transactions; 0 when none. */
  public static int openLevelsOnThisThread() {
    return Ledgers.onThisThread().openLevels();
  }

  /** The nesting policy in force. */
  public NestingPolicy nestingPolicy() {
    return nesting.policy();
  }

  /** The timeouts in force. */
  public TimeoutSettings timeouts() {
    return timeouts.settings();
  }

  /** How SQL text appears in findings and exception messages ({@code jooq.sql.literals}). */
  public SqlLiterals sqlLiterals() {
    return literals;
  }

  /** Failures inside the guard that were logged and swallowed; zero unless there is a bug. */
  public long internalErrors() {
    return errors.count();
  }

  /** Removes the meters this guard registered. */
  public void unbindMeters() {
    metrics.close();
  }
}
