package io.faultline.kafka.connection;

import io.faultline.core.net.Outcome;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoReader;
import java.util.Optional;

/** A reader that answers what the test set last; {@code null} reads as a closed socket. */
final class ScriptedTcpInfoReader implements TcpInfoReader {

  private volatile TcpInfo next;

  void set(TcpInfo info) {
    next = info;
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
    TcpInfo info = next;
    return info == null ? Outcome.unavailable("closed") : Outcome.of(info);
  }
}
