package io.faultline.bootstrap;

import java.net.SocketAddress;
import java.util.function.Consumer;

/**
 * The bridge between connect advice woven into {@code java.base} and the agent. It is loaded by the
 * bootstrap class loader (the agent appends a small jar holding it to the bootstrap search path),
 * so {@code java.net.Socket} and {@code sun.nio.ch.SocketChannelImpl} can see it; it sees only JDK
 * types, and the agent plugs its counter in through {@link #callback}.
 *
 * <p>Never reference this class from agent code before the bridge jar is on the bootstrap path: the
 * system class loader would then define a second copy that the woven JDK classes never call.
 */
public final class ConnectHook {

  /** Where new connections go; {@code null} (the default) ignores them. Set by the agent. */
  public static volatile Consumer<SocketAddress> callback;

  private ConnectHook() {}

  /**
   * Called by advice after a connect to {@code remote} succeeded. Throwables of the callback
   * propagate to the advice, whose woven handler suppresses and counts them.
   */
  public static void connected(SocketAddress remote) {
    Consumer<SocketAddress> target = callback;
    if (target != null) {
      target.accept(remote);
    }
  }

  /** Whether a callback is set: advice with extra work to do skips it when not. */
  public static boolean active() {
    return callback != null;
  }
}
