package io.faultline.agent.net;

import io.faultline.core.net.ListenQueue;
import io.faultline.core.net.Outcome;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoDump;
import io.faultline.core.net.TcpInfoReader;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A TCP_INFO reader whose native binding is still being loaded on one of the agent's threads, so
 * that the application thread whose Kafka client first reached the agent does not load JNA (a
 * couple of hundred milliseconds on a busy machine) itself. Until the load is over it claims to be
 * supported (the platform check passed already) and its reads wait for the load: only the agent's
 * own threads read (the delivery sampler, the connection monitor), never an application thread. A
 * load that fails or outlasts {@link #WAIT_SECONDS} makes every read unavailable, as an unsupported
 * platform's reader does.
 */
final class LoadingTcpInfoReader implements TcpInfoReader {

  /** How long a read waits for the load before it gives up on this reader. */
  static final long WAIT_SECONDS = 30;

  private final Future<TcpInfoReader> loading;
  private volatile TcpInfoReader loaded;

  LoadingTcpInfoReader(Future<TcpInfoReader> loading) {
    this.loading = loading;
  }

  /** The loaded reader, waiting for it if need be; null when the load failed. */
  private TcpInfoReader loaded() {
    TcpInfoReader r = loaded;
    if (r != null) {
      return r;
    }
    try {
      r = loading.get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (Exception e) {
      r = new FailedLoad(String.valueOf(e));
    }
    loaded = r;
    return r;
  }

  /** The loaded reader if the load is over, else null; never waits. */
  private TcpInfoReader ifLoaded() {
    return loaded != null || loading.isDone() ? loaded() : null;
  }

  @Override
  public boolean isSupported() {
    TcpInfoReader r = ifLoaded();
    return r == null || r.isSupported();
  }

  @Override
  public Optional<String> unsupportedReason() {
    TcpInfoReader r = ifLoaded();
    return r == null ? Optional.empty() : r.unsupportedReason();
  }

  @Override
  public Outcome<TcpInfo> read(int fd) {
    TcpInfoReader r = loaded();
    return r == null ? Outcome.unavailable("interrupted while TCP_INFO was loading") : r.read(fd);
  }

  @Override
  public long bytesAcked(int fd) {
    TcpInfoReader r = loaded();
    return r == null ? -1 : r.bytesAcked(fd);
  }

  @Override
  public Outcome<ListenQueue> listenQueue(int fd) {
    TcpInfoReader r = loaded();
    return r == null
        ? Outcome.unavailable("interrupted while TCP_INFO was loading")
        : r.listenQueue(fd);
  }

  @Override
  public TcpInfoDump dump() {
    TcpInfoReader r = loaded();
    return r == null ? TcpInfoDump.unavailable("interrupted while TCP_INFO was loading") : r.dump();
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
