package io.faultline.agent.net;

import io.faultline.agent.weave.Advice;
import io.faultline.bootstrap.ConnectHook;
import java.net.SocketAddress;

/**
 * Exit advice of {@code java.net.Socket.connect(SocketAddress, int)}: a connect that returned
 * normally is a new connection to {@code endpoint} (already resolved: an unresolved address
 * throws).
 */
public final class SocketConnectAdvice {

  private SocketConnectAdvice() {}

  /** Counts the connection when the connect succeeded. */
  @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
  public static void exit(
      @Advice.Argument(0) SocketAddress endpoint, @Advice.Thrown Throwable thrown) {
    if (thrown == null) {
      ConnectHook.connected(endpoint);
    }
  }
}
