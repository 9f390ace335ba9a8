package io.faultline.core.bench;

import io.faultline.core.net.JnaOnlyReader;
import io.faultline.core.net.SocketFds;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoReader;
import io.faultline.core.net.foreign.ForeignTcpInfoReader;
import io.faultline.core.net.foreign.GetsockoptBinder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one TCP_INFO sample of a real connection: {@code getsockopt(TCP_INFO)} on a connected
 * loopback {@link SocketChannel}'s descriptor and the decoding into {@link TcpInfo}, through JNA
 * ({@code sample}, {@code bytesAcked}: JDK 17 to 21, or without native access) and through the
 * Foreign Function &amp; Memory API ({@code foreignSample}, {@code foreignBytesAcked}: JDK 22 and
 * later; they fail on older JDKs, so run them alone there); and what the delivery sampler reads
 * instead where it can, {@code ioctl(SIOCOUTQ)} less a count of the bytes written ({@code
 * unacknowledgedBytes}, {@code foreignUnacknowledgedBytes}; on JDK 17 to 21 {@code
 * unacknowledgedBytes} and {@code bytesAcked} go through Faultline's JNI library where it is built,
 * {@code jnaUnacknowledgedBytes} through JNA as without it). Run by {@code ./benchmarks}, or alone
 * after {@code ./mvnw -pl core package -DskipTests}: {@code java -cp core/target/test-classes:<test
 * class path> org.openjdk.jmh.Main TcpInfoSampleBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED")
public class TcpInfoSampleBenchmark {

  private ServerSocketChannel server;
  private SocketChannel client;
  private SocketChannel accepted;
  private TcpInfoReader reader;
  private TcpInfoReader foreign;
  private TcpInfoReader jna;
  private int fd;
  // The connection's count of bytes written, as the delivery sampler reads it from another thread.
  private volatile long written;

  /** A connected loopback pair with a few bytes exchanged, and the client's descriptor. */
  @Setup(Level.Trial)
  public void connect() throws IOException {
    server =
        ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    client = SocketChannel.open(server.getLocalAddress());
    accepted = server.accept();
    client.write(ByteBuffer.wrap(new byte[1024]));
    accepted.read(ByteBuffer.allocate(1024));
    written = 1 + 1024;
    reader = TcpInfoReader.create();
    if (!reader.isSupported()) {
      throw new IllegalStateException(reader.unsupportedReason().orElse("unsupported"));
    }
    jna = JnaOnlyReader.load();
    if (Runtime.version().feature() >= 22) {
      try {
        foreign = ForeignTcpInfoReader.of(GetsockoptBinder.bind()).value().orElseThrow();
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("the FFM reader could not be bound", e);
      }
    }
    fd =
        SocketFds.ofChannel(client)
            .value()
            .orElseThrow(() -> new IllegalStateException("no descriptor for the channel"));
    if (reader.readsUnacknowledgedBytes() && reader.unacknowledgedBytes(fd) != 0) {
      throw new IllegalStateException("SIOCOUTQ: bytes still unacknowledged on an idle socket");
    }
  }

  /** One sample: the system call and the decoding. */
  @Benchmark
  public TcpInfo sample() {
    return reader.read(fd).value().orElseThrow();
  }

  /** What the delivery sampler reads: {@code tcpi_bytes_acked} alone. */
  @Benchmark
  public long bytesAcked() {
    return reader.bytesAcked(fd);
  }

  /**
   * What the delivery sampler reads where it can: the bytes written less {@code SIOCOUTQ}'s
   * unacknowledged ones, the same offset as {@link #bytesAcked}.
   */
  @Benchmark
  public long unacknowledgedBytes() {
    long w = written;
    return w - reader.unacknowledgedBytes(fd);
  }

  /**
   * {@link #unacknowledgedBytes} through JNA's direct mapping, where Faultline's JNI library is not
   * built (the JNI route is what {@link #unacknowledgedBytes} reads on JDK 17 to 21).
   */
  @Benchmark
  public long jnaUnacknowledgedBytes() {
    long w = written;
    return w - jna.unacknowledgedBytes(fd);
  }

  /** {@link #sample} through the Foreign Function &amp; Memory API (JDK 22 and later). */
  @Benchmark
  public TcpInfo foreignSample() {
    return foreign.read(fd).value().orElseThrow();
  }

  /** {@link #bytesAcked} through the Foreign Function &amp; Memory API (JDK 22 and later). */
  @Benchmark
  public long foreignBytesAcked() {
    return foreign.bytesAcked(fd);
  }

  /** {@link #unacknowledgedBytes} through the Foreign Function &amp; Memory API (JDK 22+). */
  @Benchmark
  public long foreignUnacknowledgedBytes() {
    long w = written;
    return w - foreign.unacknowledgedBytes(fd);
  }

  /** Closes the pair. */
  @TearDown(Level.Trial)
  public void close() throws IOException {
    client.close();
    accepted.close();
    server.close();
  }
}
