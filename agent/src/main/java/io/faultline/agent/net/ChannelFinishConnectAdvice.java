package io.faultline.agent.net;

import io.faultline.agent.weave.Advice;
import io.faultline.bootstrap.ConnectHook;
import java.net.SocketAddress;
import java.nio.channels.SocketChannel;

/**
 * Advice of {@code SocketChannelImpl.finishConnect()}: counts a pending connect once, on the call
 * that completes it ({@code finishConnect} also returns {@code true} on every later call).
 */
public final class ChannelFinishConnectAdvice {

  private ChannelFinishConnectAdvice() {}

  /** Whether a connect was pending when the call started. */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static boolean enter(@Advice.This SocketChannel channel) {
    return ConnectHook.active() && channel.isConnectionPending();
  }

  /** Counts the connection when this call completed a pending connect. */
  @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
  public static void exit(
      @Advice.Enter boolean wasPending,
      @Advice.Return boolean connected,
      @Advice.FieldValue("remoteAddress") SocketAddress remote,
      @Advice.Thrown Throwable thrown) {
    if (wasPending && thrown == null && connected) {
      ConnectHook.connected(remote);
    }
  }
}
