package io.faultline.testcontainers;

/**
 * A fault put into a broker container's network namespace (an nftables table, a queueing
 * discipline, a sysctl), held until {@link #close()} takes it out again. Closing twice is harmless;
 * a container that stopped took the fault with it.
 */
public final class NetworkFault implements AutoCloseable {

  private final String description;
  private final Runnable undo;
  private final Runnable onClose;
  private boolean closed;

  NetworkFault(String description, Runnable undo, Runnable onClose) {
    this.description = description;
    this.undo = undo;
    this.onClose = onClose;
  }

  /** What is held, e.g. {@code slow link 1mbit out of kafka-1 (tbf on eth0)}. */
  public String description() {
    return description;
  }

  /** Whether it is still on. */
  public synchronized boolean isOn() {
    return !closed;
  }

  /** Takes the fault out of the namespace: connections made afterwards are normal again. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      undo.run();
    } finally {
      onClose.run();
    }
  }

  /** The container stopped: its namespace, and the fault with it, is gone. */
  synchronized void endedWithNamespace() {
    if (!closed) {
      closed = true;
      onClose.run();
    }
  }

  @Override
  public String toString() {
    return description;
  }
}
