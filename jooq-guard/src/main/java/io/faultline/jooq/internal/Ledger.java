package io.faultline.jooq.internal;

import io.faultline.jooq.CallSite;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;

/**
 * The guard's record of one top-level transaction and its nested levels. It travels in the
 * transaction's {@code Configuration.data()} (jOOQ copies that map into every configuration derived
 * from it, which is how nested transactions and the statements inside find it) and in a
 * thread-local stack for statements run on another configuration (ThreadLocalTransactionProvider
 * style).
 *
 * <p>Levels are pushed and popped by the thread running the transaction; the watchdog thread only
 * touches the volatile deadline fields.
 */
public final class Ledger {

  /** The key under which a ledger travels in {@code Configuration.data()}. */
  public static final Object DATA_KEY = Ledger.class.getName();

  private final boolean managed;
  // The open levels, linked from the innermost down (Level.below): a flat transaction's hooks touch
  // this object and one level, no collection (a busy pool's workers pay in cache misses for each).
  private Level innermost;
  private Level top;
  // The next ledger down this thread's stack (see Ledgers); null at its bottom.
  private Ledger outerOnThread;
  private int savepointsCreated;
  private int maxDepth;
  private long statements;
  private boolean rowLocked;
  private String rowLockSql;
  private CallSite failedFlattenedSite;
  private boolean overflowReported;
  private Connection connection;
  private boolean settingsSent;
  private boolean closed;
  // The running thread's slot in the guard's counts (GuardMetrics), looked up once per transaction.
  private ThreadCounts.Slot countsSlot;

  private ScheduledFuture<?> deadline;
  private Duration deadlineTimeout = Duration.ZERO;
  private volatile boolean deadlineExpired;
  private volatile boolean deadlineCounted;
  private volatile Statement running;
  private volatile Duration statementTimeout = Duration.ZERO;

  /** A ledger for a transaction a jOOQ provider begins. */
  public Ledger() {
    this(false);
  }

  /**
   * @param managed whether a transaction manager outside jOOQ (Spring's) began the transaction, so
   *     the ledger lives only on its thread, in no configuration
   */
  public Ledger(boolean managed) {
    this.managed = managed;
  }

  /** Whether a transaction manager outside jOOQ began this transaction (see the constructor). */
  public boolean managed() {
    return managed;
  }

  /** Its transaction ended: the ledger is in no configuration and on no thread's stack any more. */
  public void close() {
    closed = true;
  }

  /** Whether {@link #close} was called (on the thread that closed it, at least). */
  public boolean closed() {
    return closed;
  }

  /** The slot in a guard's counts last used for this transaction; null before the first count. */
  ThreadCounts.Slot countsSlot() {
    return countsSlot;
  }

  /** Keeps the slot in a guard's counts this transaction's thread counts into. */
  void countsSlot(ThreadCounts.Slot slot) {
    countsSlot = slot;
  }

  /**
   * Pops levels down to {@code level} and it; false, popping nothing, when it is not open (its end
   * was seen already). Levels above it are ones whose end was never seen.
   */
  public boolean popTo(Level level) {
    Level open = innermost;
    while (open != null && open != level) {
      open = open.below();
    }
    if (open == null) {
      return false;
    }
    while (pop() != level) {
      // a level left open above it
    }
    return true;
  }

  /**
   * The top-level call site. A top level is pushed without one (walking the stack at every begin
   * was half the guard's cost per transaction) and it is found here, from the stack, the first time
   * it is needed — by a nested begin, a finding, a timeout — which is always while the top level's
   * own frames are still on the stack of the thread running it.
   */
  public CallSite topCallSite() {
    Level top = this.top;
    if (top == null) {
      return CallSite.UNKNOWN;
    }
    return top.topCallSite();
  }

  /** Pushes a level whose call site's walk stands for {@code weight} nested begins (see Level). */
  public Level push(LevelKind kind, CallSite site, int weight) {
    Level level = new Level(kind, site, depth() + 1, weight, innermost);
    if (innermost == null) {
      top = level;
    }
    innermost = level;
    maxDepth = Math.max(maxDepth, level.depth());
    return level;
  }

  /** The innermost open level; null when none is. */
  public Level peek() {
    return innermost;
  }

  /** Removes and returns the innermost open level; null when none is. */
  public Level pop() {
    Level level = innermost;
    if (level != null) {
      innermost = level.below();
      if (innermost == null) {
        top = null;
      }
    }
    return level;
  }

  /** Open levels, 1 for a top-level transaction without nesting. */
  public int depth() {
    return innermost == null ? 0 : innermost.depth();
  }

  /** The ledger below this one on its thread's stack of open transactions; null at the bottom. */
  public Ledger outerOnThread() {
    return outerOnThread;
  }

  /** Sets the ledger below this one on its thread's stack (see {@link #outerOnThread()}). */
  public void outerOnThread(Ledger outer) {
    outerOnThread = outer;
  }

  /** The deepest this transaction got: 1 when nothing was nested in it; flattened levels count. */
  public int maxDepth() {
    return maxDepth;
  }

  /** Counts a statement run in this transaction. */
  public void statementStarted() {
    statements++;
  }

  /** Statements run in this transaction so far. */
  public long statements() {
    return statements;
  }

  public int savepointCreated() {
    return ++savepointsCreated;
  }

  /** Savepoints created so far in this transaction. */
  public int savepointsCreated() {
    return savepointsCreated;
  }

  public boolean overflowReported() {
    return overflowReported;
  }

  public void overflowReported(boolean reported) {
    overflowReported = reported;
  }

  /** Records that the transaction ran a statement with a locking clause. */
  public void rowLocked(String sql) {
    if (!rowLocked) {
      rowLocked = true;
      rowLockSql = sql;
    }
  }

  public boolean isRowLocked() {
    return rowLocked;
  }

  public String rowLockSql() {
    return rowLockSql;
  }

  public CallSite failedFlattenedSite() {
    return failedFlattenedSite;
  }

  public void flattenedFailed(CallSite site) {
    if (failedFlattenedSite == null) {
      failedFlattenedSite = site;
    }
  }

  public void connection(Connection connection, boolean settingsSent) {
    this.connection = connection;
    this.settingsSent = settingsSent;
  }

  public Connection connection() {
    return connection;
  }

  public boolean settingsSent() {
    return settingsSent;
  }

  public void deadline(ScheduledFuture<?> future, Duration timeout) {
    this.deadline = future;
    this.deadlineTimeout = timeout;
  }

  public Duration deadlineTimeout() {
    return deadlineTimeout;
  }

  /** Whether a watchdog enforces the deadline: it cancels the statement that is running. */
  public boolean watched() {
    return deadline != null;
  }

  public void cancelDeadline() {
    ScheduledFuture<?> d = deadline;
    if (d != null) {
      d.cancel(false);
      deadline = null;
    }
  }

  /** Whether the transaction deadline passed. */
  public boolean deadlineExpired() {
    return deadlineExpired;
  }

  /** True the first time it is called after the deadline passed: count the timeout once. */
  public boolean claimDeadlineCount() {
    if (deadlineCounted) {
      return false;
    }
    deadlineCounted = true;
    return true;
  }

  /** Called on the watchdog thread: marks the deadline passed and cancels the running statement. */
  public void expire() {
    deadlineExpired = true;
    Statement statement = running;
    if (statement != null) {
      try {
        statement.cancel();
      } catch (SQLException | RuntimeException ignored) {
        // The statement ended meanwhile; the next one fails on the expired deadline.
      }
    }
  }

  /** The statement now running, for the watchdog to cancel; null when none. */
  public void running(Statement statement) {
    running = statement;
  }

  public void statementTimeout(Duration timeout) {
    statementTimeout = timeout;
  }

  public Duration statementTimeout() {
    return statementTimeout;
  }
}
