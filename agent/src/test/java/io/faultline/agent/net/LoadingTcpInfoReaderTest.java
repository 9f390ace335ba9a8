package io.faultline.agent.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.net.Outcome;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoReader;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
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
  void nothingIsLoadedBeforeTheFirstReadWhichLoadsOnce() throws Exception {
    AtomicInteger loads = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    LoadingTcpInfoReader reader =
        new LoadingTcpInfoReader(
            () -> {
              loads.incrementAndGet();
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return new Loaded();
            });
    assertThat(reader.isSupported()).isTrue();
    assertThat(reader.unsupportedReason()).isEmpty();
    assertThat(loads).as("a reader nobody read loads nothing").hasValue(0);

    ExecutorService agentThreads = Executors.newFixedThreadPool(2);
    try {
      Future<Long> first = agentThreads.submit(() -> reader.bytesAcked(7));
      Future<Long> second = agentThreads.submit(() -> reader.bytesAcked(8));
      Thread.sleep(200);
      assertThat(first).as("the first read loads").isNotDone();
      assertThat(second).as("a read meanwhile waits for that load").isNotDone();
      release.countDown();
      assertThat(first.get()).isEqualTo(70);
      assertThat(second.get()).isEqualTo(80);
      assertThat(reader.read(3).reason()).hasValue("fd 3");
      assertThat(loads).as("one load for every read").hasValue(1);
    } finally {
      agentThreads.shutdownNow();
    }
  }

  @Test
  void aFailedLoadLeavesEveryReadUnavailableWithTheReason() {
    LoadingTcpInfoReader reader =
        new LoadingTcpInfoReader(
            () -> {
              throw new UnsatisfiedLinkError("no libc here");
            });
    assertThat(reader.bytesAcked(4)).isEqualTo(-1);
    assertThat(reader.isSupported()).isFalse();
    assertThat(reader.unsupportedReason().orElseThrow()).contains("no libc here");
    assertThat(reader.read(4).isAvailable()).isFalse();
    assertThat(reader.dump().isSupported()).isFalse();
  }

  @Test
  void onceLoadedTheAgentHandsOutTheReaderItself() {
    TcpInfoReader loaded = AgentTcpInfo.reader();
    assertThat(AgentTcpInfo.readerLoadedOnFirstRead()).isSameAs(loaded);
  }
}
