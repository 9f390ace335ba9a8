package io.faultline.kafka.bench;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.core.net.Outcome;
import io.faultline.core.net.SocketFds;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoReader;
import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaFindingTypes;
import io.faultline.kafka.KafkaMeterTags;
import io.faultline.kafka.connection.BrokerConnection;
import io.faultline.kafka.connection.ConnectionMonitor;
import io.faultline.kafka.connection.RecycleMode;
import io.faultline.kafka.connection.Recycler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
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
 * What one periodic sample of a healthy broker connection costs the connection monitor ({@code
 * kafka.tcp.interval}): {@link ConnectionMonitor#sampleNow} on a connected loopback socket ({@code
 * sampleNow}), the same beside 1,000 other connections' active findings in the registry ({@code
 * sampleNowBeside1000Findings}: a fleet-wide window-scaling fault raises one per connection), and
 * the TCP_INFO read alone ({@code read}: the system call and its decoding). Run with {@code -prof
 * gc} for the bytes each sample leaves to the collector.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED")
public class ConnectionSampleBenchmark {

  private static final String KEY = "producer-1/1";

  private static final int OTHER_FINDINGS = 1000;

  private ServerSocketChannel server;
  private SocketChannel client;
  private SocketChannel accepted;
  private TcpInfoReader reader;
  private int fd;
  private ConnectionMonitor monitor;
  private ConnectionMonitor crowded;

  /** A connected loopback pair, watched by a monitor beside the other connections' findings. */
  @Setup(Level.Trial)
  public void connect() throws IOException {
    server =
        ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    client = SocketChannel.open(server.getLocalAddress());
    accepted = server.accept();
    client.write(ByteBuffer.wrap(new byte[1024]));
    accepted.read(ByteBuffer.allocate(1024));
    reader = TcpInfoReader.create();
    if (!reader.isSupported()) {
      throw new IllegalStateException(reader.unsupportedReason().orElse("unsupported"));
    }
    Outcome<Integer> descriptor = SocketFds.ofChannel(client);
    fd = descriptor.value().orElseThrow(() -> new IllegalStateException("no descriptor"));
    monitor = monitor(new Findings(Duration.ofMinutes(10), Clock.systemUTC(), quiet()), descriptor);
    Findings many = new Findings(Duration.ofMinutes(10), Clock.systemUTC(), quiet());
    for (int i = 0; i < OTHER_FINDINGS; i++) {
      many.replaceAll(
          "kafka.tcp:producer-" + i + "/2",
          List.of(
              Finding.of(
                      KafkaFindingTypes.KAFKA_WINDOW_SCALING_OFF,
                      "client producer-" + i + " → node 2 (10.0.0.2:9092)")
                  .message("negotiated no window scaling")
                  .build()));
    }
    crowded = monitor(many, descriptor);
  }

  private ConnectionMonitor monitor(Findings findings, Outcome<Integer> descriptor)
      throws IOException {
    ConnectionMonitor m =
        new ConnectionMonitor(
            findings,
            new Recycler(
                new Recycler.Policy(RecycleMode.ON, 3, Duration.ofMinutes(5), 0.8),
                (k, r) -> false),
            new SimpleMeterRegistry(),
            KafkaMeterTags.DEFAULT,
            System::nanoTime);
    m.add(
        KEY,
        new BrokerConnection(
            ClientType.PRODUCER,
            "producer-1",
            "1",
            (InetSocketAddress) client.getRemoteAddress(),
            () -> client.isOpen() ? descriptor : Outcome.unavailable("the connection is closed"),
            reader));
    if (!m.sampleNow(KEY).isEmpty()) {
      throw new IllegalStateException("the loopback connection sampled unhealthy");
    }
    return m;
  }

  /** A logger that drops everything: the findings' log lines are not what is measured. */
  private static System.Logger quiet() {
    return new System.Logger() {
      @Override
      public String getName() {
        return "bench";
      }

      @Override
      public boolean isLoggable(System.Logger.Level level) {
        return false;
      }

      @Override
      public void log(
          System.Logger.Level level, java.util.ResourceBundle b, String msg, Throwable thrown) {}

      @Override
      public void log(
          System.Logger.Level level, java.util.ResourceBundle b, String format, Object... params) {}
    };
  }

  /** One periodic sample: the read, the findings' bookkeeping, the recycler's decision. */
  @Benchmark
  public List<Finding> sampleNow() {
    return monitor.sampleNow(KEY);
  }

  /** {@link #sampleNow} with 1,000 other connections' findings active in the registry. */
  @Benchmark
  public List<Finding> sampleNowBeside1000Findings() {
    return crowded.sampleNow(KEY);
  }

  /** The TCP_INFO read and its decoding alone. */
  @Benchmark
  public TcpInfo read() {
    return reader.read(fd).value().orElseThrow();
  }

  /** Closes the pair and the monitor. */
  @TearDown(Level.Trial)
  public void close() throws IOException {
    monitor.close();
    crowded.close();
    client.close();
    accepted.close();
    server.close();
  }
}
