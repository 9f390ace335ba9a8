package io.faultline.core.net;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.ptr.IntByReference;
import java.nio.ByteBuffer;
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

  private static final System.Logger LOG = System.getLogger(LinuxTcpInfoReader.class.getName());

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

  /** {@code getsockopt} bound once by {@link Native#register(Class, NativeLibrary)}. */
  static final class DirectLibC {
    private DirectLibC() {}

    static native int getsockopt(int fd, int level, int optname, byte[] optval, int[] optlen)
        throws LastErrorException;
  }

  /** One thread's buffer and length cell: a sample allocates nothing but its result. */
  private static final class Scratch {
    final byte[] buf = new byte[TcpInfo.BUFFER_SIZE];
    final int[] len = new int[1];
  }

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  /** The interface mapping; null when the direct one is registered. */
  private final LibC libc;

  private LinuxTcpInfoReader(LibC libc) {
    this.libc = libc;
  }

  /** Loads libc; a missing JNA jar or native library becomes the reason, not an error. */
  static Outcome<TcpInfoReader> load() {
    try {
      Native.register(DirectLibC.class, NativeLibrary.getInstance("c"));
      return Outcome.of(new LinuxTcpInfoReader(null));
    } catch (LinkageError | RuntimeException e) {
      LOG.log(
          System.Logger.Level.INFO,
          "faultline: JNA direct mapping of getsockopt unavailable ("
              + e
              + "); TCP_INFO samples take the slower interface mapping");
    }
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
    return switch (e.getErrorCode()) {
      case EBADF -> "EBADF (the descriptor is not open)";
      case ENOTSOCK -> "ENOTSOCK (the descriptor is not a socket)";
      case ENOPROTOOPT -> "ENOPROTOOPT (not a TCP socket)";
      default -> "errno " + e.getErrorCode();
    };
  }
}
