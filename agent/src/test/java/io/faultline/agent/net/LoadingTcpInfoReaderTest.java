package io.faultline.agent.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.net.Outcome;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoReader;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class LoadingTcpInfoReaderTest {

  /** Answers bytesAcked with the descriptor times ten. */
  private static final class Loaded implements TcpInfoReader {
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
      return Outcome.unavailable("fd " + fd);
    }

    @Override
    public long bytesAcked(int fd) {
      return fd * 10L;
    }
  }

  @Test
  void beforeTheLoadItClaimsSupportWithoutWaitingAndItsReadsWaitForTheLoad() throws Exception {
    CompletableFuture<TcpInfoReader> loading = new CompletableFuture<>();
    LoadingTcpInfoReader reader = new LoadingTcpInfoReader(loading);
    assertThat(reader.isSupported()).isTrue();
    assertThat(reader.unsupportedReason()).isEmpty();

    ExecutorService sampler = Executors.newSingleThreadExecutor();
    try {
      Future<Long> read = sampler.submit(() -> reader.bytesAcked(7));
      Thread.sleep(200);
      assertThat(read).as("a read before the load is over waits for it").isNotDone();
      loading.complete(new Loaded());
      assertThat(read.get()).isEqualTo(70);
      assertThat(reader.read(3).reason()).hasValue("fd 3");
    } finally {
      sampler.shutdownNow();
    }
  }

  @Test
  void aFailedLoadLeavesEveryReadUnavailableWithTheReason() {
    LoadingTcpInfoReader reader =
        new LoadingTcpInfoReader(
            CompletableFuture.failedFuture(new UnsatisfiedLinkError("no libc here")));
    assertThat(reader.isSupported()).isFalse();
    assertThat(reader.unsupportedReason().orElseThrow()).contains("no libc here");
    assertThat(reader.bytesAcked(4)).isEqualTo(-1);
    assertThat(reader.read(4).isAvailable()).isFalse();
    assertThat(reader.dump().isSupported()).isFalse();
  }

  @Test
  void theCallersThreadDoesNotLoadTheReader() {
    AtomicReference<Thread> loadedOn = new AtomicReference<>();
    TcpInfoReader reader =
        AgentTcpInfo.readerLoadedOn(
            task -> {
              Thread t =
                  new Thread(
                      () -> {
                        loadedOn.set(Thread.currentThread());
                        task.run();
                      },
                      "agent-loader");
              t.start();
            });
    // Whatever this platform supports, the answer comes from the other thread's load.
    assertThat(reader.bytesAcked(-1)).isEqualTo(-1);
    assertThat(loadedOn.get()).isNotNull().isNotSameAs(Thread.currentThread());
    assertThat(AgentTcpInfo.readerLoadedOn(Runnable::run))
        .as("once loaded, the reader itself")
        .isSameAs(AgentTcpInfo.reader());
  }
}
