package io.faultline.core.net;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.ptr.IntByReference;
import java.nio.ByteBuffer;
import java.util.Optional;

/** Calls {@code getsockopt(fd, IPPROTO_TCP, TCP_INFO)} through JNA. */
final class LinuxTcpInfoReader implements TcpInfoReader {

  private static final int IPPROTO_TCP = 6;
  private static final int TCP_INFO = 11;
  private static final int EBADF = 9;
  private static final int ENOTSOCK = 88;
  private static final int ENOPROTOOPT = 92;

  /** The libc functions this reader needs. */
  interface LibC extends Library {
    int getsockopt(int fd, int level, int optname, byte[] optval, IntByReference optlen)
        throws LastErrorException;
  }

  private final LibC libc;

  private LinuxTcpInfoReader(LibC libc) {
    this.libc = libc;
  }

  /** Loads libc; a missing JNA jar or native library becomes the reason, not an error. */
  static Outcome<TcpInfoReader> load() {
    try {
      return Outcome.of(new LinuxTcpInfoReader(Native.load("c", LibC.class)));
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
  public Outcome<TcpInfo> read(int fd) {
    if (fd < 0) {
      return Outcome.unavailable("no file descriptor (" + fd + ")");
    }
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
    switch (e.getErrorCode()) {
      case EBADF:
        return "EBADF (the descriptor is not open)";
      case ENOTSOCK:
        return "ENOTSOCK (the descriptor is not a socket)";
      case ENOPROTOOPT:
        return "ENOPROTOOPT (not a TCP socket)";
      default:
        return "errno " + e.getErrorCode();
    }
  }
}
