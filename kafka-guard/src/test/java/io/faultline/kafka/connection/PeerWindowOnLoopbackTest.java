package io.faultline.kafka.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.core.net.SocketFds;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * {@link PeerWindowWatch} on the facts of real loopback connections (this kernel's TCP_INFO, MSS
 * 65,483): a healthy connection with its 128 KiB-and-more window, ordinary flow control (the
 * receiver stops reading, its window closes while data waits, then reopens) and a receiver whose
 * window can never open (a 4 KiB receive buffer, as a broker with a lost scale looks from the
 * client). Samples are taken every 100 ms; the watch is given a clock of 5 s per sample, since its
 * persistence rule is about seconds the test need not spend.
 */
class PeerWindowOnLoopbackTest {

  private static final long FIVE_SECONDS = 5_000_000_000L;

  @Test
  void aHealthyLoopbackConnectionIsNeverCollapsed() throws Exception {
    try (Pair pair = Pair.open(0)) {
      pair.receiver(0);
      List<Sample> samples = pair.sample(8);
      print("healthy", samples);
      assertThat(samples).noneMatch(s -> s.collapse().isPresent());
      assertThat(samples).anySatisfy(s -> assertThat(s.window()).isGreaterThan(65_535));
    }
  }

  @Test
  void flowControlClosesTheWindowWhileDataWaitsAndIsNotACollapse() throws Exception {
    try (Pair pair = Pair.open(0)) {
      AtomicBoolean reading = pair.receiver(0);
      List<Sample> samples = new ArrayList<>(pair.sample(3));
      reading.set(false); // the receiver stops reading: its buffer fills and the window closes
      // How soon depends on how fast the writer fills the receiver's buffer (tens of MB on
      // loopback): one run closed it after 0.9 s. Sample until it holds data back, then three
      // more while the receiver still does not read.
      samples.addAll(pair.sampleUntilStarved(200));
      samples.addAll(pair.sample(3));
      reading.set(true);
      samples.addAll(pair.sample(3));
      print("flow control", samples);
      assertThat(samples)
          .as("the kernel shows the data held back by the closed window")
          .filteredOn(Sample::starved)
          .hasSizeGreaterThanOrEqualTo(3);
      assertThat(samples).noneMatch(s -> s.collapse().isPresent());
    }
  }

  @Test
  void aWindowThatCanNeverOpenIsACollapse() throws Exception {
    try (Pair pair = Pair.open(4096)) {
      pair.receiver(5);
      List<Sample> samples = pair.sample(6);
      print("4 KiB receive buffer", samples);
      assertThat(samples).allSatisfy(s -> assertThat(s.window()).isLessThanOrEqualTo(65_535));
      assertThat(samples.get(samples.size() - 1).collapse())
          .as("held back in every sample, and the window never past 64 KiB")
          .isPresent();
    }
  }

  private static void print(String name, List<Sample> samples) {
    samples.forEach(s -> System.out.println("loopback " + name + ": " + s));
  }

  /** One sample: the window, what waited, whether starved, and the watch's verdict so far. */
  record Sample(
      long window, long waiting, boolean starved, Optional<PeerWindowWatch.Collapse> collapse) {}

  /** A loopback connection whose client writes all the time, and its receiving end. */
  private static final class Pair implements AutoCloseable {
    private final ServerSocketChannel server;
    private final SocketChannel client;
    private final SocketChannel accepted;
    private final int fd;
    private final AtomicBoolean open = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    private final TcpInfoReader reader = TcpInfoReader.create();
    private final PeerWindowWatch watch = new PeerWindowWatch();
    private TcpInfo previous;
    private long clock;

    private Pair(ServerSocketChannel server, SocketChannel client, SocketChannel accepted, int fd) {
      this.server = server;
      this.client = client;
      this.accepted = accepted;
      this.fd = fd;
    }

    /** {@code receiveBuffer} 0 keeps the kernel's default. */
    static Pair open(int receiveBuffer) throws IOException {
      assumeTrue(TcpInfoReader.create().isSupported(), "TCP_INFO is read on Linux only");
      ServerSocketChannel server = ServerSocketChannel.open();
      if (receiveBuffer > 0) {
        // Before listen(): the window scale of accepted connections is chosen from it.
        server.setOption(StandardSocketOptions.SO_RCVBUF, receiveBuffer);
      }
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      InetSocketAddress address = (InetSocketAddress) server.getLocalAddress();
      SocketChannel client = SocketChannel.open(address);
      SocketChannel accepted = server.accept();
      int fd =
          SocketFds.forThisProcess()
              .byAddress(address, (InetSocketAddress) client.getLocalAddress())
              .value()
              .orElseThrow(() -> new AssertionError("the client socket's fd"));
      Pair pair = new Pair(server, client, accepted, fd);
      pair.writer();
      return pair;
    }

    private void writer() {
      start(
          () -> {
            ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
            while (open.get()) {
              chunk.clear();
              client.write(chunk);
            }
          });
    }

    /** Reads while the returned flag is set, pausing {@code pauseMillis} after each 1 KiB read. */
    AtomicBoolean receiver(int pauseMillis) {
      AtomicBoolean reading = new AtomicBoolean(true);
      start(
          () -> {
            ByteBuffer buffer = ByteBuffer.allocate(pauseMillis > 0 ? 1024 : 256 * 1024);
            while (open.get()) {
              if (!reading.get()) {
                Thread.sleep(10);
                continue;
              }
              buffer.clear();
              accepted.read(buffer);
              if (pauseMillis > 0) {
                Thread.sleep(pauseMillis);
              }
            }
          });
      return reading;
    }

    /** Samples 100 ms apart until one is starved, at most {@code max}. */
    List<Sample> sampleUntilStarved(int max) throws InterruptedException {
      List<Sample> samples = new ArrayList<>();
      while (samples.size() < max
          && (samples.isEmpty() || !samples.get(samples.size() - 1).starved())) {
        samples.addAll(sample(1));
      }
      return samples;
    }

    /** {@code n} samples, 100 ms apart. */
    List<Sample> sample(int n) throws InterruptedException {
      List<Sample> samples = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        Thread.sleep(100);
        TcpInfo info = reader.read(fd).value().orElseThrow();
        TcpFacts facts = TcpFacts.of(info, previous);
        previous = info;
        clock += FIVE_SECONDS;
        samples.add(
            new Sample(
                info.sndWnd().orElse(-1),
                info.notsentBytes().orElse(-1),
                PeerWindowWatch.starved(facts),
                watch.observe(facts, clock)));
      }
      return samples;
    }

    private void start(Work work) {
      Thread t =
          new Thread(
              () -> {
                try {
                  work.run();
                } catch (IOException | InterruptedException e) {
                  // closed under it: the test is over
                }
              });
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }

    @Override
    public void close() throws Exception {
      open.set(false);
      client.close();
      accepted.close();
      server.close();
      for (Thread t : threads) {
        t.join(5_000);
      }
    }
  }

  @FunctionalInterface
  private interface Work {
    void run() throws IOException, InterruptedException;
  }
}
