package io.faultline.core.net;

import java.util.Objects;
import java.util.Optional;

/**
 * A {@link TcpInfoReader} whose delivery-sample reads ({@link #unacknowledgedBytes}, {@link
 * #bytesAcked}) are plain JNI calls into Faultline's own native library, and whose other reads are
 * another reader's. JNA's direct mapping adds several times what JNI does to each of those system
 * calls (docs/benchmarks.md has the figures): the difference counts on a producer whose requests
 * stay unanswered, which the delivery sampler then reads many times a second. Used where JNA would
 * otherwise serve (JDK 17 to 23 without native access granted); from JDK 22 on, with native access,
 * the Foreign Function &amp; Memory API serves instead.
 */
public final class JniDeliverySample implements TcpInfoReader {

  private final TcpInfoReader rest;

  private JniDeliverySample(TcpInfoReader rest) {
    this.rest = rest;
  }

  /**
   * {@code rest} with the delivery-sample reads through the JNI library, or why that library cannot
   * be used here (then use {@code rest} as it is). Binds the library at the first call in this
   * class loader; never throws.
   */
  public static Outcome<TcpInfoReader> over(TcpInfoReader rest) {
    Objects.requireNonNull(rest, "rest");
    Optional<String> why = JniSocketCalls.unavailableReason();
    return why.isPresent()
        ? Outcome.unavailable(why.get())
        : Outcome.of(new JniDeliverySample(rest));
  }

  @Override
  public boolean isSupported() {
    return rest.isSupported();
  }

  @Override
  public Optional<String> unsupportedReason() {
    return rest.unsupportedReason();
  }

  @Override
  public Outcome<TcpInfo> read(int fd) {
    return rest.read(fd);
  }

  @Override
  public long bytesAcked(int fd) {
    return fd < 0 ? -1 : JniSocketCalls.bytesAcked(fd);
  }

  @Override
  public long unacknowledgedBytes(int fd) {
    return fd < 0 ? -1 : JniSocketCalls.outputQueue(fd);
  }

  @Override
  public boolean readsUnacknowledgedBytes() {
    return true;
  }

  @Override
  public Outcome<ListenQueue> listenQueue(int fd) {
    return rest.listenQueue(fd);
  }

  @Override
  public TcpInfoDump dump() {
    return rest.dump();
  }

  @Override
  public String toString() {
    return "JNI delivery sample over " + rest;
  }
}
