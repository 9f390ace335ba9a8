package io.faultline.agent.net;

import io.faultline.core.net.ListenQueue;
import io.faultline.core.net.Outcome;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoDump;
import io.faultline.core.net.TcpInfoReader;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A TCP_INFO reader whose native binding is loaded by its first read: the application thread whose
 * Kafka client first reached the agent does not load JNA (a couple of hundred milliseconds on a
 * busy machine), and neither does a service's start-up when none of its connections is read then.
 * Only the agent's own threads read (the delivery sampler, the connection monitor), never an
 * application thread, so the load runs on one of those. Until then it claims to be supported (the
 * platform check passed already); a load that fails makes every read unavailable, as an unsupported
 * platform's reader does.
 */
final class LoadingTcpInfoReader implements TcpInfoReader {

  private final Supplier<TcpInfoReader> load;
  private volatile TcpInfoReader loaded;

  LoadingTcpInfoReader(Supplier<TcpInfoReader> load) {
    this.load = load;
  }

  /** The loaded reader, loading it on this (agent) thread if no read has yet. */
  private TcpInfoReader loaded() {
    TcpInfoReader r = loaded;
    if (r != null) {
      return r;
    }
    // A private lock no class loader knows of: two agent threads reading first wait for one load.
    synchronized (this) {
      if (loaded == null) {
        try {
          loaded = Objects.requireNonNull(load.get(), "no reader");
        } catch (Throwable e) {
          loaded = new FailedLoad(String.valueOf(e));
        }
      }
      return loaded;
    }
  }

  @Override
  public boolean isSupported() {
    TcpInfoReader r = loaded;
    return r == null || r.isSupported();
  }

  @Override
  public Optional<String> unsupportedReason() {
    TcpInfoReader r = loaded;
    return r == null ? Optional.empty() : r.unsupportedReason();
  }

  @Override
  public Outcome<TcpInfo> read(int fd) {
    return loaded().read(fd);
  }

  @Override
  public long bytesAcked(int fd) {
    return loaded().bytesAcked(fd);
  }

  @Override
  public long unacknowledgedBytes(int fd) {
    return loaded().unacknowledgedBytes(fd);
  }

  @Override
  public boolean readsUnacknowledgedBytes() {
    return loaded().readsUnacknowledgedBytes();
  }

  @Override
  public Outcome<ListenQueue> listenQueue(int fd) {
    return loaded().listenQueue(fd);
  }

  @Override
  public TcpInfoDump dump() {
    return loaded().dump();
  }

  /** The reader a failed load leaves: every read unavailable, with the reason. */
  private record FailedLoad(String reason) implements TcpInfoReader {
    @Override
    public boolean isSupported() {
      return false;
    }

    @Override
    public Optional<String> unsupportedReason() {
      return Optional.of("loading TCP_INFO failed: " + reason);
    }

    @Override
    public Outcome<TcpInfo> read(int fd) {
      return Outcome.unavailable("loading TCP_INFO failed: " + reason);
    }
  }
}
