package io.faultline.agent.net;

import io.faultline.agent.weave.Advice;
import io.faultline.bootstrap.ConnectHook;
import java.net.SocketAddress;

/**
 * Exit advice of {@code SocketChannelImpl.connect(SocketAddress)}: {@code true} means connected now
 * (blocking mode, or a non-blocking connect that completed at once); {@code false} means pending,
 * counted by {@link ChannelFinishConnectAdvice} when it completes.
 */
public final class ChannelConnectAdvice {

  private ChannelConnectAdvice() {}

  /** Counts the connection when the connect completed. */
  @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
  public static void exit(
      @Advice.Return boolean connected,
      @Advice.FieldValue("remoteAddress") SocketAddress remote,
      @Advice.Thrown Throwable thrown) {
    if (thrown == null && connected) {
      ConnectHook.connected(remote);
    }
  }
}
