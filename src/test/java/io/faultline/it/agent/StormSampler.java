package io.faultline.it.agent;

import io.faultline.core.net.ProcNetTcp;
import io.faultline.core.net.TcpState;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Samples, every {@value #TICK_MS} ms, a broker's network namespace ({@code Tcp: PassiveOpens} from
 * {@code snmp}; {@code SyncookiesSent}, {@code ListenOverflows}, {@code ListenDrops} from {@code
 * netstat}) and how many connections from the clients' namespace to that broker are established
 * ({@code /proc/net/tcp} and {@code tcp6} of this JVM's namespace, where the client JVMs run). Each
 * sample keeps the time it was really taken.
 */
final class StormSampler {

  static final int TICK_MS = 10;

  /** One reading; counters are the kernel's cumulative values. */
  record Sample(
      long atNanos,
      long passiveOpens,
      long syncookiesSent,
      long listenOverflows,
      long listenDrops,
      int established) {}

  private final Path snmp;
  private final Path netstat;
  private final InetSocketAddress broker;
  private final ProcNetTcp parser = ProcNetTcp.nativeOrder();
  private final List<Sample> samples = new ArrayList<>();
  private volatile boolean running;
  private volatile Exception failure;
  private volatile boolean realtime;
  private Thread thread;

  StormSampler(Path snmp, Path netstat, InetSocketAddress broker) {
    this.snmp = snmp;
    this.netstat = netstat;
    this.broker = broker;
  }

  void start() throws IOException {
    sample(); // fail here, not in the thread, when the files cannot be read
    running = true;
    thread =
        new Thread(
            () -> {
              realtime = raiseToRealtime();
              long next = System.nanoTime();
              while (running) {
                next += TICK_MS * 1_000_000L;
                try {
                  Sample s = sample();
                  synchronized (samples) {
                    samples.add(s);
                  }
                } catch (Exception e) {
                  failure = e;
                  return;
                }
                long wait = next - System.nanoTime();
                if (wait > 0) {
                  LockSupport.parkNanos(wait);
                } else {
                  next = System.nanoTime(); // fell behind: no catch-up burst of samples
                }
              }
            },
            "storm-sampler");
    thread.start();
  }

  /** Stops sampling and returns the samples. */
  List<Sample> stop() throws InterruptedException {
    running = false;
    thread.join();
    if (failure != null) {
      throw new IllegalStateException("sampling the broker's namespace failed", failure);
    }
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  /** Whether the sampling thread ran with {@code SCHED_FIFO}. */
  boolean realtime() {
    return realtime;
  }

  // The calling thread's kernel id is the last part of /proc/thread-self's target.
  private static boolean raiseToRealtime() {
    try {
      Path self = Files.readSymbolicLink(Path.of("/proc/thread-self"));
      String tid = self.getFileName().toString();
      Process chrt =
          new ProcessBuilder("chrt", "-f", "-p", "50", tid)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      return chrt.waitFor(10, java.util.concurrent.TimeUnit.SECONDS) && chrt.exitValue() == 0;
    } catch (IOException | RuntimeException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private Sample sample() throws IOException {
    long at = System.nanoTime();
    List<String> snmpLines = Files.readAllLines(snmp);
    List<String> netstatLines = Files.readAllLines(netstat);
    return new Sample(
        at,
        counter(snmpLines, "Tcp:", "PassiveOpens"),
        counter(netstatLines, "TcpExt:", "SyncookiesSent"),
        counter(netstatLines, "TcpExt:", "ListenOverflows"),
        counter(netstatLines, "TcpExt:", "ListenDrops"),
        established());
  }

  /** A counter of a {@code /proc/net/snmp}-style file: a header line and a value line per group. */
  static long counter(List<String> lines, String group, String name) {
    for (int i = 0; i + 1 < lines.size(); i++) {
      String header = lines.get(i);
      String values = lines.get(i + 1);
      if (header.startsWith(group) && values.startsWith(group)) {
        String[] names = header.trim().split("\\s+");
        String[] numbers = values.trim().split("\\s+");
        for (int k = 1; k < names.length && k < numbers.length; k++) {
          if (names[k].equals(name)) {
            return Long.parseLong(numbers[k]);
          }
        }
      }
    }
    throw new IllegalStateException("no " + group + " " + name + " counter");
  }

  private int established() throws IOException {
    int count = 0;
    String address = broker.getAddress().getHostAddress();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      Path path = Path.of(table);
      if (!Files.exists(path)) {
        continue;
      }
      for (ProcNetTcp.Entry e : parser.parse(Files.readAllLines(path))) {
        if (e.state() == TcpState.ESTABLISHED
            && e.remote().getPort() == broker.getPort()
            && e.remote().getAddress().getHostAddress().replace("::ffff:", "").equals(address)) {
          count++;
        }
      }
    }
    return count;
  }
}
