package io.faultline.testcontainers;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A fault held in a transaction of its own PostgreSQL backend until {@link #close()} rolls it back
 * and ends the backend. Closing twice is harmless.
 */
public final class HeldTransaction implements AutoCloseable {

  private final Connection connection;
  private final int pid;
  private final String description;
  private final Runnable onClose;
  private boolean closed;

  HeldTransaction(Connection connection, int pid, String description, Runnable onClose) {
    this.connection = connection;
    this.pid = pid;
    this.description = description;
    this.onClose = onClose;
  }

  /** The backend's process id, as {@code pg_stat_activity.pid} and {@code pg_locks.pid} show it. */
  public int pid() {
    return pid;
  }

  /** What is held, e.g. {@code long transaction (backend 4711)}. */
  public String description() {
    return description;
  }

  /** Whether it is still held. */
  public synchronized boolean isHeld() {
    return !closed;
  }

  /** Rolls the transaction back and ends its backend: whatever it held is released. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try (Connection c = connection) {
      c.rollback();
    } catch (SQLException e) {
      // The backend is gone already (terminated, or the server restarted): nothing is held.
    } finally {
      onClose.run();
    }
  }

  @Override
  public String toString() {
    return description;
  }
}
