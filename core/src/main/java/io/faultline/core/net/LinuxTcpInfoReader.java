package io.faultline.core.net;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import io.faultline.core.Loggers;
import io.faultline.core.net.foreign.ForeignTcpInfoReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;

/**
 * Calls {@code getsockopt(fd, IPPROTO_TCP, TCP_INFO)} through JNA's direct mapping ({@link
 * DirectLibC}: a plain JNI call into libc with the buffer and length as Java arrays, reused per
 * thread), falling back to JNA's interface mapping ({@link LibC}) where direct mapping cannot be
 * registered. The interface mapping costs about 5 µs a sample (reflection, argument boxing and a
 * native {@code IntByReference} per call); the sample path of the agent runs every 500 µs per
 * connection awaiting delivery, so it must be cheaper than that.
 */
final class LinuxTcpInfoReader implements TcpInfoReader {

  private static final System.Logger LOG = Loggers.get(LinuxTcpInfoReader.class.getName());

  private static final int IPPROTO_TCP = 6;
  private static final int TCP_INFO = 11;

  /** The libc functions this reader needs. */
  interface LibC extends Library {
    int getsockopt(int fd, int level, int optname, byte[] optval, IntByReference optlen)
        throws LastErrorException;
  }

  /** {@code getsockopt} bound once by {@link Native#register(Class, NativeLibrary)}. */
  static final class DirectLibC {
    private DirectLibC() {}

    static native int getsockopt(int fd, int level, int optname, byte[] optval, int[] optlen)
        throws LastErrorException;
  }

  /**
   * {@code getsockopt} with the buffer and length passed as native addresses: only primitives cross
   * JNA, which then neither copies arrays nor boxes anything (the delivery sampler's path).
   */
  static final class RawLibC {
    private RawLibC() {}

    static native int getsockopt(int fd, int level, int optname, long optval, long optlen);
  }

  /**
   * {@code ioctl} with its one argument as a native address, registered apart from {@link RawLibC}
   * so that a libc refusing it leaves {@code getsockopt} bound.
   */
  static final class IoctlLibC {
    private IoctlLibC() {}

    static native int ioctl(int fd, long request, long argument);
  }

  /**
   * The calls of a netlink {@code sock_diag} dump, with buffers as native addresses. Nested here so
   * that the agent's isolated JNA loader, which defines this class and its nested ones next to JNA,
   * defines it too.
   */
  static final class NetlinkLibC {
    private NetlinkLibC() {}

    static native int socket(int domain, int type, int protocol) throws LastErrorException;

    static native long sendto(int fd, long buf, long len, int flags, long addr, int addrlen)
        throws LastErrorException;

    static native long recv(int fd, long buf, long len, int flags) throws LastErrorException;

    static native int close(int fd);
  }

  /** {@link NetlinkTransport} through {@link NetlinkLibC}. */
  static final class JnaNetlink implements NetlinkTransport {
    private static final int AF_NETLINK = 16;
    private static final int SOCK_RAW = 3;
    private static final int SOCK_CLOEXEC = 0x80000;
    private static final int NETLINK_SOCK_DIAG = 4;

    /**
     * A datagram of a dump is at most 32 KiB (the kernel's cap on a dump's buffer); twice that, so
     * none is ever truncated.
     */
    private static final int RECEIVE_BUFFER = 64 * 1024;

    /** {@code struct sockaddr_nl} of the kernel: family, then zero pad, port id and groups. */
    private static final int SOCKADDR_NL = 12;

    @Override
    public Channel open() throws IOException {
      int fd;
      try {
        fd = NetlinkLibC.socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
      } catch (LastErrorException e) {
        throw new IOException(
            "socket(AF_NETLINK, NETLINK_SOCK_DIAG) refused: errno " + e.getErrorCode());
      }
      return new JnaChannel(fd);
    }

    private static final class JnaChannel implements Channel {
      private final int fd;
      private final Memory buffer = new Memory(RECEIVE_BUFFER);
      private final ByteBuffer view =
          buffer.getByteBuffer(0, RECEIVE_BUFFER).order(ByteOrder.LITTLE_ENDIAN);
      private final Memory kernel = new Memory(SOCKADDR_NL);

      JnaChannel(int fd) {
        this.fd = fd;
        kernel.clear();
        kernel.setShort(0, (short) AF_NETLINK);
      }

      @Override
      public void send(ByteBuffer request) throws IOException {
        int length = request.remaining();
        // The request shares the receive buffer: it is sent before any answer arrives.
        view.clear();
        view.put(request.duplicate());
        try {
          long sent =
              NetlinkLibC.sendto(
                  fd,
                  Pointer.nativeValue(buffer),
                  length,
                  0,
                  Pointer.nativeValue(kernel),
                  SOCKADDR_NL);
          if (sent != length) {
            throw new IOException("sendto sent " + sent + " of " + length + " bytes");
          }
        } catch (LastErrorException e) {
          throw new IOException("sendto(sock_diag) failed: errno " + e.getErrorCode());
        }
      }

      @Override
      public ByteBuffer receive() throws IOException {
        long n;
        try {
          n = NetlinkLibC.recv(fd, Pointer.nativeValue(buffer), RECEIVE_BUFFER, 0);
        } catch (LastErrorException e) {
          throw new IOException("recv(sock_diag) failed: errno " + e.getErrorCode());
        }
        if (n <= 0) {
          throw new IOException("recv(sock_diag) returned " + n);
        }
        return view.clear().limit((int) n);
      }

      @Override
      public void close() {
        NetlinkLibC.close(fd);
      }
    }
  }

  /**
   * One thread's native buffer for {@link #bytesAcked}: the struct up to the field, then optlen.
   */
  private static final class NativeScratch {
    private static final int LENGTH_AT = TcpInfo.BYTES_ACKED_OFFSET + 8;
    // SIOCOUTQ's answer, after the length cell.
    private static final int QUEUED_AT = LENGTH_AT + 4;
    final Memory memory = new Memory(QUEUED_AT + 4);
    final long address = Pointer.nativeValue(memory);
    final ByteBuffer view = memory.getByteBuffer(0, QUEUED_AT + 4).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static final ThreadLocal<NativeScratch> NATIVE_SCRATCH =
      ThreadLocal.withInitial(NativeScratch::new);

  /** One thread's buffer and length cell: a sample allocates nothing but its result. */
  private static final class Scratch {
    final byte[] buf = new byte[TcpInfo.BUFFER_SIZE];
    final int[] len = new int[1];
  }

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  /** The interface mapping; null when the direct one is registered. */
  private final LibC libc;

  /** Whether {@link RawLibC} is registered. */
  private final boolean raw;

  /** The bulk route; unavailable with the interface mapping. */
  private final TcpInfoDump dump;

  /** Whether {@link IoctlLibC} is registered and {@code SIOCOUTQ} is known here. */
  private final boolean ioctl;

  private LinuxTcpInfoReader(LibC libc, boolean raw, TcpInfoDump dump, boolean ioctl) {
    this.libc = libc;
    this.raw = raw;
    this.dump = dump;
    this.ioctl = ioctl;
  }

  /** Loads libc; a missing JNA jar or native library becomes the reason, not an error. */
  static Outcome<TcpInfoReader> load() {
    try {
      Native.register(DirectLibC.class, NativeLibrary.getInstance("c"));
      boolean raw;
      try {
        Native.register(RawLibC.class, NativeLibrary.getInstance("c"));
        raw = true;
      } catch (LinkageError | RuntimeException e) {
        raw = false; // bytesAcked then decodes a whole sample
      }
      boolean ioctl = false;
      if (OutputQueueIoctl.isKnownHere()) {
        try {
          Native.register(IoctlLibC.class, NativeLibrary.getInstance("c"));
          ioctl = true;
        } catch (LinkageError | RuntimeException e) {
          // the delivery sampler then reads tcpi_bytes_acked
        }
      }
      TcpInfoDump dump;
      try {
        Native.register(NetlinkLibC.class, NativeLibrary.getInstance("c"));
        dump = TcpInfoDump.overNetlink(new JnaNetlink());
      } catch (LinkageError | RuntimeException e) {
        dump = TcpInfoDump.unavailable("JNA could not bind the netlink calls: " + e);
      }
      return Outcome.of(new LinuxTcpInfoReader(null, raw, dump, ioctl));
    } catch (LinkageError | RuntimeException e) {
      LOG.log(
          System.Logger.Level.INFO,
          "faultline: JNA direct mapping of getsockopt unavailable ("
              + e
              + "); TCP_INFO samples take the slower interface mapping");
    }
    try {
      return Outcome.of(
          new LinuxTcpInfoReader(
              Native.load("c", LibC.class),
              false,
              TcpInfoDump.unavailable("JNA's direct mapping is unavailable here"),
              false));
    } catch (LinkageError | RuntimeException e) {
      // NoClassDefFoundError when JNA is not on the class path, UnsatisfiedLinkError when its
      // native
      // part cannot be unpacked (noexec /tmp, an unusual libc): both mean "not here", not "broken".
      return Outcome.unavailable("JNA could not load libc: " + e);
    }
  }

  @Override
  public boolean isSupported() {
    return true;
  }

  @Override
  public Optional<String> unsupportedReason() {
    return Optional.empty();
  }

  @Override
  public TcpInfoDump dump() {
    return dump;
  }

  @Override
  public Outcome<TcpInfo> read(int fd) {
    if (fd < 0) {
      return Outcome.unavailable("no file descriptor (" + fd + ")");
    }
    if (libc != null) {
      return readThroughInterface(fd);
    }
    Scratch scratch = SCRATCH.get();
    byte[] buf = scratch.buf;
    int[] len = scratch.len;
    len[0] = buf.length;
    try {
      DirectLibC.getsockopt(fd, IPPROTO_TCP, TCP_INFO, buf, len);
    } catch (LastErrorException e) {
      return Outcome.unavailable("getsockopt(" + fd + ", TCP_INFO) failed: " + describe(e));
    } catch (RuntimeException | LinkageError e) {
      return Outcome.unavailable("getsockopt(" + fd + ", TCP_INFO) failed: " + e);
    }
    // Parsed into a fresh value before the buffer is reused by this thread's next sample.
    return TcpInfo.parse(ByteBuffer.wrap(buf), Math.min(len[0], buf.length));
  }

  @Override
  public Outcome<ListenQueue> listenQueue(int fd) {
    if (fd < 0 || libc != null) {
      return TcpInfoReader.super.listenQueue(fd);
    }
    Scratch scratch = SCRATCH.get();
    scratch.len[0] = scratch.buf.length;
    try {
      DirectLibC.getsockopt(fd, IPPROTO_TCP, TCP_INFO, scratch.buf, scratch.len);
    } catch (LastErrorException e) {
      return Outcome.unavailable("getsockopt(" + fd + ", TCP_INFO) failed: " + describe(e));
    } catch (RuntimeException | LinkageError e) {
      return Outcome.unavailable("getsockopt(" + fd + ", TCP_INFO) failed: " + e);
    }
    return ListenQueue.parse(
        ByteBuffer.wrap(scratch.buf), Math.min(scratch.len[0], scratch.buf.length));
  }

  /** Reads the struct up to {@code tcpi_bytes_acked} into this thread's native buffer. */
  @Override
  public long bytesAcked(int fd) {
    if (fd < 0 || !raw) {
      return TcpInfoReader.super.bytesAcked(fd);
    }
    NativeScratch n = NATIVE_SCRATCH.get();
    n.view.putInt(NativeScratch.LENGTH_AT, NativeScratch.LENGTH_AT);
    int rc;
    try {
      rc =
          RawLibC.getsockopt(
              fd, IPPROTO_TCP, TCP_INFO, n.address, n.address + NativeScratch.LENGTH_AT);
    } catch (RuntimeException | LinkageError e) {
      return -1;
    }
    if (rc != 0 || n.view.getInt(NativeScratch.LENGTH_AT) < NativeScratch.LENGTH_AT) {
      return -1;
    }
    return n.view.getLong(TcpInfo.BYTES_ACKED_OFFSET);
  }

  @Override
  public long unacknowledgedBytes(int fd) {
    if (fd < 0 || !ioctl) {
      return -1;
    }
    NativeScratch n = NATIVE_SCRATCH.get();
    int rc;
    try {
      rc = IoctlLibC.ioctl(fd, OutputQueueIoctl.REQUEST, n.address + NativeScratch.QUEUED_AT);
    } catch (RuntimeException | LinkageError e) {
      return -1;
    }
    return rc == 0 ? n.view.getInt(NativeScratch.QUEUED_AT) : -1;
  }

  @Override
  public boolean readsUnacknowledgedBytes() {
    return ioctl;
  }

  private Outcome<TcpInfo> readThroughInterface(int fd) {
    byte[] buf = new byte[TcpInfo.BUFFER_SIZE];
    IntByReference len = new IntByReference(buf.length);
    try {
      libc.getsockopt(fd, IPPROTO_TCP, TCP_INFO, buf, len);
    } catch (LastErrorException e) {
      return Outcome.unavailable("getsockopt(" + fd + ", TCP_INFO) failed: " + describe(e));
    } catch (RuntimeException | LinkageError e) {
      return Outcome.unavailable("getsockopt(" + fd + ", TCP_INFO) failed: " + e);
    }
    return TcpInfo.parse(ByteBuffer.wrap(buf), Math.min(len.getValue(), buf.length));
  }

  private static String describe(LastErrorException e) {
    return ForeignTcpInfoReader.describe(e.getErrorCode());
  }
}
