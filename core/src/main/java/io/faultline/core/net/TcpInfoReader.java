package io.faultline.core.net;

import io.faultline.core.Loggers;
import java.lang.System.Logger.Level;
import java.nio.ByteOrder;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads {@link TcpInfo} for a socket file descriptor. Obtain one with {@link #create()}: on Linux
 * it calls {@code getsockopt(TCP_INFO)}, through the Foreign Function &amp; Memory API where this
 * code has native access (JDK 22 or later with {@code --enable-native-access}), else through JNA
 * when it is available, the delivery sampler's reads through Faultline's own JNI library where it
 * was built for this architecture ({@link JniDeliverySample}); anywhere else it is a reader whose
 * every {@link #read} answers "unavailable" with the reason, so callers never need a platform check
 * of their own and never see an exception.
 */
public interface TcpInfoReader {

  /**
   * The reader for this platform. Never throws; when TCP_INFO cannot be read here it logs one INFO
   * line (once per JVM) and returns a reader that reports why.
   */
  static TcpInfoReader create() {
    String os = System.getProperty("os.name", "unknown");
    String reason = null;
    if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
      reason = "TCP_INFO is read only on Linux; this is " + os;
    } else if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
      reason = "the tcp_info layout is known only for little-endian Linux";
    } else {
      Outcome<TcpInfoReader> foreign = ForeignFunctions.readerIfNativeAccess();
      if (foreign.isAvailable()) {
        return foreign.value().orElseThrow();
      }
      Outcome<TcpInfoReader> linux = linuxThroughJna();
      if (linux.isAvailable()) {
        TcpInfoReader jna = linux.value().orElseThrow();
        return JniDeliverySample.over(jna).value().orElse(jna);
      }
      reason = linux.reason().orElseThrow();
    }
    UnsupportedTcpInfoReader.logOnce(reason);
    return new UnsupportedTcpInfoReader(reason);
  }

  /**
   * A reader that reads nothing: {@link #isSupported()} is false and every read answers
   * "unavailable" with {@code reason}. Logs nothing.
   */
  static TcpInfoReader unsupported(String reason) {
    return new UnsupportedTcpInfoReader(Objects.requireNonNull(reason, "reason"));
  }

  /**
   * JNA's reader, or why not. Linking {@link LinuxTcpInfoReader} itself needs JNA's classes (its
   * exception handlers name {@code LastErrorException}), so a class path without JNA fails here,
   * before its own checks run.
   */
  private static Outcome<TcpInfoReader> linuxThroughJna() {
    try {
      return LinuxTcpInfoReader.load();
    } catch (LinkageError e) {
      return Outcome.unavailable("JNA is not on the class path (" + e + ")");
    }
  }

  /** Whether this reader can read TCP_INFO at all. */
  boolean isSupported();

  /** Why this reader cannot read TCP_INFO; empty when it can. */
  Optional<String> unsupportedReason();

  /**
   * Reads TCP_INFO of {@code fd}. Never throws: a closed or non-TCP descriptor, or an unsupported
   * platform, comes back as an unavailable outcome with the reason.
   */
  Outcome<TcpInfo> read(int fd);

  /**
   * Only {@code tcpi_bytes_acked} of {@code fd}: what a delivery sampler reads many times a second,
   * without decoding (or allocating) the rest.
   *
   * @return the bytes the peer acknowledged, or -1 when TCP_INFO cannot be read or has no such
   *     field (a kernel before 4.1)
   */
  default long bytesAcked(int fd) {
    Outcome<TcpInfo> info = read(fd);
    return info.isAvailable() ? info.value().orElseThrow().bytesAcked().orElse(-1) : -1;
  }

  /**
   * The bytes written to {@code fd}, a connected TCP socket, that its peer has not acknowledged yet
   * ({@code ioctl(SIOCOUTQ)}): about half the kernel's work of a TCP_INFO read. With a count of the
   * bytes written since the connection opened it gives what {@link #bytesAcked} gives.
   *
   * @return the unacknowledged bytes, or -1 when they cannot be read here (see {@link
   *     #readsUnacknowledgedBytes})
   */
  default long unacknowledgedBytes(int fd) {
    return -1;
  }

  /** Whether {@link #unacknowledgedBytes} can answer on this platform. */
  default boolean readsUnacknowledgedBytes() {
    return false;
  }

  /**
   * The accept queue of {@code fd}, a listening socket. Never throws: anything else (a connected
   * socket, a closed descriptor, an unsupported platform) comes back unavailable with the reason.
   */
  default Outcome<ListenQueue> listenQueue(int fd) {
    return Outcome.unavailable("this reader cannot read a listening socket's queue");
  }

  /**
   * Reads many sockets' TCP_INFO in one pass (a netlink {@code sock_diag} dump), through the same
   * native route as this reader. Never throws, never null: where it cannot be read (no such route,
   * netlink refused) its calls come back unavailable and the caller reads socket by socket.
   */
  default TcpInfoDump dump() {
    return TcpInfoDump.unavailable(
        unsupportedReason().orElse("this reader has no sock_diag route"));
  }
}

/** The reader where TCP_INFO cannot be read: it says why, every time. */
final class UnsupportedTcpInfoReader implements TcpInfoReader {

  private static final AtomicBoolean LOGGED = new AtomicBoolean();

  private final String reason;

  UnsupportedTcpInfoReader(String reason) {
    this.reason = reason;
  }

  static void logOnce(String reason) {
    if (LOGGED.compareAndSet(false, true)) {
      Loggers.get("io.faultline.core.net")
          .log(Level.INFO, "Faultline: per-connection TCP facts are off: " + reason);
    }
  }

  @Override
  public boolean isSupported() {
    return false;
  }

  @Override
  public Optional<String> unsupportedReason() {
    return Optional.of(reason);
  }

  @Override
  public Outcome<TcpInfo> read(int fd) {
    return Outcome.unavailable(reason);
  }
}
