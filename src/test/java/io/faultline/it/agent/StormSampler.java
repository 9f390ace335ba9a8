package io.faultline.it.agent;

import io.faultline.core.net.ProcNetTcp;
import io.faultline.core.net.TcpState;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Samples, every {@value #TICK_MS} ms, a broker's network namespace ({@code Tcp: PassiveOpens} from
 * {@code snmp}; {@code SyncookiesSent}, {@code ListenOverflows}, {@code ListenDrops} from {@code
 * netstat}) and how many connections from the clients' namespace to that broker are established
 * ({@code /proc/net/tcp} and {@code tcp6} of this JVM's namespace, where the client JVMs run), the
 * latter every {@value #ESTABLISHED_EVERY} samples and repeated in between: those tables hold every
 * socket on the host, and reading them at 100 Hz took most of a core from the brokers and clients
 * being measured. Each sample keeps the time it was really taken ({@code CLOCK_MONOTONIC}, as
 * {@link System#nanoTime()}).
 *
 * <p>The machine is loaded far beyond its cores while hundreds of clients reconnect, and a sampler
 * that is not scheduled reports a burst late and lumped together. A thread of this JVM is not
 * enough even with real-time priority: it stalls at every safepoint while the JVM's GC threads wait
 * for a core. So the sampling runs in a process of its own, {@code storm_sampler.py} under {@code
 * python3}, which asks for {@code SCHED_FIFO}. Without {@code python3} it falls back to a thread
 * here. Which one ran, whether it got real-time priority, and the largest gap between two samples
 * are reported with the results.
 */
final class StormSampler {

  static final int TICK_MS = 10;

  /** The established connections are counted every this many samples (100 ms). */
  static final int ESTABLISHED_EVERY = 10;

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
  private final List<Sample> samples = new ArrayList<>();
  private Process process;
  private java.io.BufferedReader processOut;
  private Thread thread;
  private volatile boolean running;
  private volatile Exception failure;
  private boolean realtime;

  StormSampler(Path snmp, Path netstat, InetSocketAddress broker) {
    this.snmp = snmp;
    this.netstat = netstat;
    this.broker = broker;
  }

  /** Starts sampling: in its own process when {@code python3} runs, else on a thread here. */
  void start() throws IOException {
    // Fail early if unreadable.
    sampleHere(established(new ProcNetTcp(java.nio.ByteOrder.nativeOrder())));
    Path script = Files.createTempFile("storm_sampler", ".py");
    try (InputStream in = StormSampler.class.getResourceAsStream("storm_sampler.py")) {
      Files.write(script, in.readAllBytes());
    }
    script.toFile().deleteOnExit();
    try {
      process =
          new ProcessBuilder(
                  "python3",
                  script.toString(),
                  snmp.toString(),
                  netstat.toString(),
                  broker.getAddress().getHostAddress(),
                  Integer.toString(broker.getPort()))
              .start();
    } catch (IOException e) {
      process = null;
      startThread();
      return;
    }
    // Sampling has begun only when the process says so; starting python3 on a loaded machine
    // can take seconds.
    processOut =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String first = processOut.readLine();
    if (!"started".equals(first)) {
      String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      process.destroyForcibly();
      throw new IllegalStateException("the sampler process did not start: " + first + " " + err);
    }
  }

  /** {@code "python3 process"} or {@code "JVM thread"}. */
  String kind() {
    return process != null ? "python3 process" : "JVM thread";
  }

  /** Whether the sampler ran with {@code SCHED_FIFO}; known after {@link #stop()}. */
  boolean realtime() {
    return realtime;
  }

  /** Stops sampling and returns the samples. */
  List<Sample> stop() throws Exception {
    if (process != null) {
      return stopProcess();
    }
    running = false;
    thread.join();
    if (failure != null) {
      throw new IllegalStateException("sampling the broker's namespace failed", failure);
    }
    return List.copyOf(samples);
  }

  private List<Sample> stopProcess() throws Exception {
    if (!process.isAlive()) {
      throw new IllegalStateException(
          "the sampler process exited early: "
              + new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }
    process.getOutputStream().write("stop\n".getBytes(StandardCharsets.UTF_8));
    process.getOutputStream().flush();
    StringBuilder out = new StringBuilder();
    for (String line; (line = processOut.readLine()) != null; ) {
      out.append(line).append('\n');
    }
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IllegalStateException("the sampler process failed: " + err);
    }
    List<Sample> result = new ArrayList<>();
    for (String line : out.toString().split("\n")) {
      String[] f = line.trim().split(" ");
      if (f.length == 2 && f[0].equals("realtime")) {
        realtime = f[1].equals("1");
      } else if (f.length == 6) {
        result.add(
            new Sample(
                Long.parseLong(f[0]),
                Long.parseLong(f[1]),
                Long.parseLong(f[2]),
                Long.parseLong(f[3]),
                Long.parseLong(f[4]),
                Integer.parseInt(f[5])));
      }
    }
    return result;
  }

  private void startThread() {
    running = true;
    thread =
        new Thread(
            () -> {
              ProcNetTcp parser = ProcNetTcp.nativeOrder();
              realtime = raiseToRealtime();
              long next = System.nanoTime();
              int connected = 0;
              for (int tick = 0; running; tick++) {
                next += TICK_MS * 1_000_000L;
                try {
                  if (tick % ESTABLISHED_EVERY == 0) {
                    connected = established(parser);
                  }
                  samples.add(sampleHere(connected));
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

  // The calling thread's kernel id is the last part of /proc/thread-self's target.
  private static boolean raiseToRealtime() {
    try {
      String tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
      Process chrt =
          new ProcessBuilder("chrt", "-f", "-p", "50", tid)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      return chrt.waitFor(10, TimeUnit.SECONDS) && chrt.exitValue() == 0;
    } catch (IOException | RuntimeException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private Sample sampleHere(int established) {
    try {
      long at = System.nanoTime();
      List<String> snmpLines = Files.readAllLines(snmp);
      List<String> netstatLines = Files.readAllLines(netstat);
      return new Sample(
          at,
          counter(snmpLines, "Tcp:", "PassiveOpens"),
          counter(netstatLines, "TcpExt:", "SyncookiesSent"),
          counter(netstatLines, "TcpExt:", "ListenOverflows"),
          counter(netstatLines, "TcpExt:", "ListenDrops"),
          established);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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

  private int established(ProcNetTcp parser) {
    int count = 0;
    String address = broker.getAddress().getHostAddress();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      Path path = Path.of(table);
      if (!Files.exists(path)) {
        continue;
      }
      List<String> lines;
      try {
        lines = Files.readAllLines(path);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      for (ProcNetTcp.Entry e : parser.parse(lines)) {
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
