package io.faultline.core.net;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The native half of a {@code sock_diag} dump: a {@code NETLINK_SOCK_DIAG} socket to send a request
 * on and receive the answers from. Each of the project's routes to native code (JNA, the Foreign
 * Function &amp; Memory API) implements it; {@link TcpInfoDump#overNetlink} does the rest in Java.
 * Not API: public only for the foreign-function route's package.
 */
public interface NetlinkTransport {

  /**
   * Opens {@code socket(AF_NETLINK, SOCK_RAW, NETLINK_SOCK_DIAG)}.
   *
   * @throws IOException with the errno when it is refused (EPERM, EACCES under seccomp;
   *     EAFNOSUPPORT or EPROTONOSUPPORT without netlink)
   */
  Channel open() throws IOException;

  /** One open netlink socket; one thread at a time. */
  interface Channel extends AutoCloseable {

    /** Sends {@code request} (position to limit) to the kernel. */
    void send(ByteBuffer request) throws IOException;

    /**
     * Receives one datagram.
     *
     * @return a little-endian view of it from index 0, valid until the next call
     */
    ByteBuffer receive() throws IOException;

    @Override
    void close();
  }
}
