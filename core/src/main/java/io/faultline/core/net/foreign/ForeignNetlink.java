package io.faultline.core.net.foreign;

import io.faultline.core.net.NetlinkTransport;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@link NetlinkTransport} through the netlink handles of {@link GetsockoptBinder#bind()}: the
 * request and the answers in native segments, so the kernel writes where the decoder reads.
 */
final class ForeignNetlink implements NetlinkTransport {

  private static final int AF_NETLINK = 16;
  private static final int SOCK_RAW = 3;
  private static final int SOCK_CLOEXEC = 0x80000;
  private static final int NETLINK_SOCK_DIAG = 4;

  /** A dump's datagram is at most 32 KiB (the kernel's cap); twice that, none is truncated. */
  private static final int RECEIVE_BUFFER = 64 * 1024;

  /** {@code struct sockaddr_nl} of the kernel: family, then zero pad, port id and groups. */
  private static final int SOCKADDR_NL = 12;

  private final MethodHandle socket;
  private final MethodHandle sendto;
  private final MethodHandle recv;
  private final MethodHandle close;
  private final MethodHandle allocate;
  private final MethodHandle asByteBuffer;
  private final MethodHandle errno;
  private final MethodHandle newState;

  ForeignNetlink(MethodHandle[] bound) {
    this.socket = bound[GetsockoptBinder.SOCKET];
    this.sendto = bound[GetsockoptBinder.SENDTO];
    this.recv = bound[GetsockoptBinder.RECV];
    this.close = bound[GetsockoptBinder.CLOSE];
    this.allocate = bound[GetsockoptBinder.ALLOCATE];
    this.asByteBuffer = bound[GetsockoptBinder.AS_BYTE_BUFFER];
    this.errno = bound[GetsockoptBinder.ERRNO];
    this.newState = bound[GetsockoptBinder.NEW_STATE];
  }

  @Override
  public Channel open() throws IOException {
    try {
      Object state = newState.invoke();
      int fd =
          (int) socket.invokeExact(state, AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
      if (fd < 0) {
        throw new IOException(
            "socket(AF_NETLINK, NETLINK_SOCK_DIAG) refused: errno " + errnoOf(state));
      }
      return new ForeignChannel(fd, state);
    } catch (IOException e) {
      throw e;
    } catch (Throwable e) {
      throw new IOException("socket(AF_NETLINK, NETLINK_SOCK_DIAG) failed: " + e, e);
    }
  }

  private int errnoOf(Object state) {
    try {
      return (int) errno.invokeExact(state);
    } catch (Throwable e) {
      return -1;
    }
  }

  private final class ForeignChannel implements Channel {
    private final int fd;
    private final Object state;
    private final Object buffer;
    private final ByteBuffer view;
    private final Object kernel;

    ForeignChannel(int fd, Object state) throws Throwable {
      this.fd = fd;
      this.state = state;
      this.buffer = allocate.invokeExact((long) RECEIVE_BUFFER);
      this.view = ((ByteBuffer) asByteBuffer.invokeExact(buffer)).order(ByteOrder.LITTLE_ENDIAN);
      this.kernel = allocate.invokeExact((long) SOCKADDR_NL);
      ByteBuffer address = ((ByteBuffer) asByteBuffer.invokeExact(kernel));
      address.order(ByteOrder.LITTLE_ENDIAN).putShort(0, (short) AF_NETLINK);
      for (int i = 2; i < SOCKADDR_NL; i++) {
        address.put(i, (byte) 0);
      }
    }

    @Override
    public void send(ByteBuffer request) throws IOException {
      int length = request.remaining();
      // The request shares the receive buffer: it is sent before any answer arrives.
      view.clear();
      view.put(request.duplicate());
      long sent;
      try {
        sent = (long) sendto.invokeExact(state, fd, buffer, (long) length, 0, kernel, SOCKADDR_NL);
      } catch (Throwable e) {
        throw new IOException("sendto(sock_diag) failed: " + e, e);
      }
      if (sent != length) {
        throw new IOException(
            "sendto(sock_diag) sent " + sent + " of " + length + ": errno " + errnoOf(state));
      }
    }

    @Override
    public ByteBuffer receive() throws IOException {
      long n;
      try {
        n = (long) recv.invokeExact(state, fd, buffer, (long) RECEIVE_BUFFER, 0);
      } catch (Throwable e) {
        throw new IOException("recv(sock_diag) failed: " + e, e);
      }
      if (n <= 0) {
        throw new IOException("recv(sock_diag) returned " + n + ": errno " + errnoOf(state));
      }
      return view.clear().limit((int) n);
    }

    @Override
    public void close() {
      try {
        int ignored = (int) close.invokeExact(fd);
      } catch (Throwable e) {
        // nothing to do: the descriptor is gone either way
      }
    }
  }
}
