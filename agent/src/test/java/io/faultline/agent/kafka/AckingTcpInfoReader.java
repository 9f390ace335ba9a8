package io.faultline.agent.kafka;

import io.faultline.core.net.Outcome;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoReader;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link TcpInfoReader} for the delivery sampler's tests: {@link #bytesAcked} reports {@link
 * #acked} (-1, the default, is a failed read) and counts the reads.
 */
final class AckingTcpInfoReader implements TcpInfoReader {
  final AtomicInteger reads = new AtomicInteger();
  volatile long acked = -1;

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
}
