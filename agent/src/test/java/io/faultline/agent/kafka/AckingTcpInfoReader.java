package io.faultline.agent.kafka;

import io.faultline.core.net.Outcome;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoReader;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link TcpInfoReader} for the delivery sampler's tests: {@link #bytesAcked} reports {@link
 * #acked} (-1, the default, is a failed read) and counts the reads; with {@link #readsQueue} set it
 * also answers {@code SIOCOUTQ} with {@link #unacknowledged}, counted apart.
 */
final class AckingTcpInfoReader implements TcpInfoReader {
  final AtomicInteger reads = new AtomicInteger();
  final AtomicInteger queueReads = new AtomicInteger();
  volatile long acked = -1;
  volatile boolean readsQueue;
  volatile long unacknowledged = -1;

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
    return Outcome.unavailable("bytesAcked only");
  }

  @Override
  public long bytesAcked(int fd) {
    reads.incrementAndGet();
    return acked;
  }

  @Override
  public boolean readsUnacknowledgedBytes() {
    return readsQueue;
  }

  @Override
  public long unacknowledgedBytes(int fd) {
    queueReads.incrementAndGet();
    return unacknowledged;
  }
}
