package io.faultline.agent.net;

import io.faultline.agent.weave.Advice;
import io.faultline.bootstrap.ConnectHook;
import java.net.SocketAddress;

/**
 * Exit advice of {@code SocketChannelImpl.blockingConnect(SocketAddress, long)}, which the socket
 * adaptor of a channel ({@code SocketChannel.socket().connect(...)}) calls instead of {@code
 * connect}: returning normally means connected.
 */
public final class ChannelBlockingConnectAdvice {

  private ChannelBlockingConnectAdvice() {}

  /** Counts the connection when the connect succeeded. */
  @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
  public static void exit(
      @Advice.FieldValue("remoteAddress") SocketAddress remote, @Advice.Thrown Throwable thrown) {
    if (thrown == null) {
      ConnectHook.connected(remote);
    }
  }
}
