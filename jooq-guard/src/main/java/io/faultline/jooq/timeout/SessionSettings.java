package io.faultline.jooq.timeout;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Applies PostgreSQL session settings to a connection only when they differ from what was last
 * applied to that physical connection, so a pooled connection costs one {@code SET} round trip the
 * first time and none in steady state.
 *
 * <p>The connection is remembered by its physical connection ({@code unwrap(Connection.class)},
 * which HikariCP answers with the driver's connection), by identity and weakly, so connections the
 * pool retires are forgotten. A {@code SET} issued inside a transaction is undone when that
 * transaction rolls back; the caller then calls {@link #forget}.
 *
 * <p>The steady state, every top-level transaction's begin on every worker thread, reads without a
 * lock, so the workers of a busy pool do not contend for one at each begin (nor wait for one
 * descheduled while holding it). Only a change takes the lock.
 */
public final class SessionSettings {

  /** What was applied to one physical connection; null fields were never touched. */
  private record Applied(Long statementMs, Long lockMs, Long idleMs) {

    /** Whether this is what {@code settings} asks for: nothing to send (the steady state). */
    boolean matches(TimeoutSettings settings) {
      return same(statementMs, settings.statement())
          && same(lockMs, settings.lock())
          && same(idleMs, settings.idleInTransaction());
    }

    private static boolean same(Long applied, Duration wanted) {
      long wantedMs = wanted.toMillis();
      return wantedMs == 0 ? applied == null : applied != null && applied == wantedMs;
    }
  }

  private static final Applied NOTHING = new Applied(null, null, null);

  /** A connection remembered weakly, equal to a {@link Lookup} of the same connection. */
  private static final class Remembered extends WeakReference<Connection> {
    private final int hash;

    Remembered(Connection connection, ReferenceQueue<Connection> queue) {
      super(connection, queue);
      this.hash = System.identityHashCode(connection);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object other) {
      // The map is only searched with a Lookup, and a change removes the old key before it puts.
      return other == this || other instanceof Lookup l && l.equals(this);
    }
  }

  /** The key a read looks a connection up with: nothing to clear, nothing queued. */
  private record Lookup(Connection connection) {
    @Override
    public int hashCode() {
      return System.identityHashCode(connection);
    }

    @Override
    public boolean equals(Object other) {
      // get(), an intrinsic, not refersTo(): in a profile that was a call of its own per read.
      return other instanceof Remembered r
          ? r.get() == connection
          : other instanceof Lookup l && l.connection == connection;
    }
  }

  private final ConcurrentHashMap<Object, Applied> applied = new ConcurrentHashMap<>();
  private final ReferenceQueue<Connection> retired = new ReferenceQueue<>();

  /** Taken by every change, so two threads planning one connection send its SET once. */
  private final Object changes = new Object();

  /**
   * The SQL that brings {@code connection} to {@code settings}, plus {@code local} {@code SET
   * LOCAL} statements (may be empty), or an empty string when nothing needs to be sent; records the
   * session part as applied. Run the result with {@link #execute}.
   */
  public String plan(Connection connection, TimeoutSettings settings, String local) {
    Connection physical = physical(connection);
    Applied known = applied.get(new Lookup(physical));
    if ((known == null ? NOTHING : known).matches(settings)) {
      return local;
    }
    synchronized (changes) {
      forgetRetired();
      Applied before = applied.getOrDefault(new Lookup(physical), NOTHING);
      if (before.matches(settings)) {
        return local;
      }
      StringBuilder sql = new StringBuilder();
      Long statement = next(sql, "statement_timeout", before.statementMs(), settings.statement());
      Long lock = next(sql, "lock_timeout", before.lockMs(), settings.lock());
      Long idle =
          next(
              sql,
              "idle_in_transaction_session_timeout",
              before.idleMs(),
              settings.idleInTransaction());
      Applied after = new Applied(statement, lock, idle);
      if (!after.equals(before)) {
        applied.remove(new Lookup(physical));
        applied.put(new Remembered(physical, retired), after);
      }
      return sql.append(local).toString();
    }
  }

  /**
   * Appends a SET when {@code wanted} differs from {@code before}; returns what is then in force.
   */
  private static Long next(StringBuilder sql, String name, Long before, Duration wanted) {
    long wantedMs = wanted.toMillis();
    if (wantedMs == 0) {
      if (before == null) {
        return null;
      }
      sql.append("SET ").append(name).append(" TO DEFAULT;");
      return null;
    }
    if (before != null && before == wantedMs) {
      return before;
    }
    sql.append("SET ").append(name).append(" = ").append(wantedMs).append(';');
    return wantedMs;
  }

  /** Runs {@code sql} (from {@link #plan}) on {@code connection} in one round trip. */
  public static void execute(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  /** Forgets what was applied to {@code connection}, so the next {@link #plan} sets it again. */
  public void forget(Connection connection) {
    Connection physical = physical(connection);
    synchronized (changes) {
      applied.remove(new Lookup(physical));
    }
  }

  /** How many physical connections are remembered. */
  public int size() {
    synchronized (changes) {
      forgetRetired();
      return applied.size();
    }
  }

  /** Drops the entries of connections that were garbage collected. */
  private void forgetRetired() {
    for (Reference<? extends Connection> gone; (gone = retired.poll()) != null; ) {
      applied.remove(gone);
    }
  }

  /** The driver's connection behind a pool's proxy, or {@code connection} itself. */
  public static Connection physical(Connection connection) {
    Objects.requireNonNull(connection, "connection");
    try {
      Connection inner = connection.unwrap(Connection.class);
      return inner == null ? connection : inner;
    } catch (SQLException | RuntimeException e) {
      return connection;
    }
  }
}
