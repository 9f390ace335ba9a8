package io.faultline.agent.jooq.bridge;

import io.faultline.agent.AgentRuntime;
import io.faultline.agent.jooq.JooqHealth;
import io.faultline.agent.jooq.NestingHotspots;
import io.faultline.agent.jooq.TransactionHooks;
import io.faultline.core.Loggers;
import io.faultline.jooq.FlattenedRollbackException;
import io.faultline.jooq.GuardedTransactionProvider;
import io.faultline.jooq.NestedTransactionException;
import io.faultline.jooq.TransactionGuard;
import io.faultline.jooq.internal.Ledger;
import io.faultline.jooq.internal.Level;
import io.faultline.jooq.internal.LevelKind;
import io.faultline.jooq.internal.SavepointBehaviour;
import io.faultline.jooq.timeout.TransactionTimeoutException;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.jooq.ConnectionProvider;
import org.jooq.TransactionContext;
import org.jooq.TransactionProvider;
import org.jooq.impl.DataSourceConnectionProvider;

/**
 * The {@link TransactionHooks} of one jOOQ class loader: casts to jOOQ's types (this class is
 * defined next to that jOOQ) and calls a jooq-guard {@link TransactionGuard} configured from the
 * agent's {@code jooq.*} keys. Exceptions the guard throws on purpose are returned, not thrown, so
 * the advice can hand them to the application while anything else stays a suppressed agent error.
 */
public final class GuardBridge implements TransactionHooks {

  /** The end of every copy's ledger key (the class name of jooq-guard's {@code Ledger}). */
  private static final String LEDGER_KEY_SUFFIX = ".jooq.internal.Ledger";

  private static volatile boolean reportedApplicationGuard;

  private final AgentRuntime runtime;
  private final TransactionGuard guard;
  private final Map<Object, Boolean> savepointsByProvider =
      Collections.synchronizedMap(new WeakHashMap<>());

  /**
   * A guard from {@code runtime}'s configuration; its meters go to the agent's registry if asked.
   */
  public GuardBridge(AgentRuntime runtime, boolean withMeters) {
    this.runtime = runtime;
    GuardedTransactionProvider.Builder builder =
        GuardedTransactionProvider.wrap(null).config(runtime.config()).findings(runtime.findings());
    if (withMeters) {
      // Late: a transaction during the application's start must not create the registry.
      builder.lateMeterRegistry(runtime.lateMeters());
    }
    this.guard = builder.buildGuard();
  }

  @Override
  public Object beginEnter(Object provider, Object ctx) {
    TransactionContext tx = (TransactionContext) ctx;
    if (guardedByTheApplication(tx)) {
      // Its own ledger is never opened, so commit and rollback pass through unguarded as well.
      return true;
    }
    boolean nested = tx.configuration().data(Ledger.DATA_KEY) != null;
    if (!nested) {
      startHealth(tx.configuration().connectionProvider());
    }
    try {
      boolean proceed = guard.beginEnter(tx, savepoints(provider));
      if (nested) {
        recordNested(tx, null);
      }
      return proceed;
    } catch (NestedTransactionException e) {
      recordNested(tx, "refused");
      return e;
    }
  }

  /**
   * Whether the application's own jooq-guard (a {@code GuardedTransactionProvider} around this
   * provider) already guards the transaction: its ledger, under its own copy's key, is in the
   * configuration. The agent's copy of jooq-guard is relocated, so the two keys differ only in
   * their package; the application's guard is left to do the job alone.
   */
  private static boolean guardedByTheApplication(TransactionContext tx) {
    for (Object key : tx.configuration().data().keySet()) {
      if (key instanceof String name
          && name.endsWith(LEDGER_KEY_SUFFIX)
          && !name.equals(Ledger.DATA_KEY)) {
        if (!reportedApplicationGuard) {
          reportedApplicationGuard = true;
          Loggers.get(GuardBridge.class.getName())
              .log(
                  System.Logger.Level.INFO,
                  "faultline: a jOOQ transaction is already guarded by the application's"
                      + " jooq-guard; the agent leaves such transactions to it");
        }
        return true;
      }
    }
    return false;
  }

  private void recordNested(TransactionContext tx, String outcome) {
    if (!(tx.configuration().data(Ledger.DATA_KEY) instanceof Ledger ledger)) {
      return;
    }
    Level level = ledger.peek();
    // Weight 0: this begin's call site was sampled out (jooq.call-sites.walks-per-second); the
    // walked ones count for it.
    if (level == null || level.weight() == 0) {
      return;
    }
    String kind = outcome != null ? outcome : outcomeOf(level.kind());
    NestingHotspots.record(
        level.callSite().toString(),
        ledger.topCallSite().toString(),
        kind,
        ledger.isRowLocked(),
        level.weight());
  }

  private static String outcomeOf(LevelKind kind) {
    return switch (kind) {
      case SAVEPOINT -> "savepoint";
      case FLATTENED -> "flattened";
      case REFUSED -> "refused";
      default -> "join";
    };
  }

  private boolean savepoints(Object provider) {
    Boolean known = savepointsByProvider.get(provider);
    if (known == null) {
      known = SavepointBehaviour.savepoints((TransactionProvider) provider);
      savepointsByProvider.put(provider, known);
    }
    return known;
  }

  private void startHealth(ConnectionProvider connections) {
    if (!JooqHealth.wanted(runtime) || JooqHealth.started()) {
      return;
    }
    if (connections instanceof DataSourceConnectionProvider d) {
      JooqHealth.startOnce(runtime, d.dataSource());
    }
  }

  @Override
  public void beginExit(Object ctx, Throwable thrown) {
    guard.beginExit((TransactionContext) ctx, thrown);
  }

  @Override
  public Object commitEnter(Object ctx) {
    try {
      return guard.commitEnter((TransactionContext) ctx);
    } catch (FlattenedRollbackException | TransactionTimeoutException e) {
      return e;
    }
  }

  @Override
  public void commitExit(Object ctx, Throwable thrown) {
    guard.commitExit((TransactionContext) ctx, thrown);
  }

  @Override
  public Object rollbackEnter(Object ctx) {
    return guard.rollbackEnter((TransactionContext) ctx);
  }

  @Override
  public void rollbackExit(Object ctx, Throwable thrown) {
    guard.rollbackExit((TransactionContext) ctx, thrown);
  }
}
