package io.faultline.examples.demo;

import io.faultline.core.net.ProcNetTcp;
import io.faultline.core.net.TcpState;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Watches another process's TCP connections to one broker ({@code /proc/PID/net/tcp} and {@code
 * tcp6}, every 5 ms) and remembers when each new established connection was first seen: the
 * reconnects after a restart, as the broker's SYN queue sees them.
 */
final class ConnectionWatcher implements AutoCloseable {

  private final List<Path> tables;
  private final InetSocketAddress broker;
  private final ProcNetTcp parser = ProcNetTcp.nativeOrder();
  private final Map<Integer, Long> firstSeenNanos = Collections.synchronizedMap(new HashMap<>());
  private final Set<Integer> before;
  private final Thread thread;
  private volatile boolean running = true;

  ConnectionWatcher(long pid, InetSocketAddress broker) {
    this.tables =
        List.of(Path.of("/proc/" + pid + "/net/tcp"), Path.of("/proc/" + pid + "/net/tcp6"));
    this.broker = broker;
    this.before = Set.copyOf(established());
    this.thread = new Thread(this::loop, "demo-connection-watcher");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    while (running) {
      long now = System.nanoTime();
      for (int port : established()) {
        if (!before.contains(port)) {
          firstSeenNanos.putIfAbsent(port, now);
        }
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** When each new connection was first seen, in ms after {@code originNanos}, sorted. */
  List<Long> offsetsMs(long originNanos) {
    List<Long> offsets = new ArrayList<>();
    synchronized (firstSeenNanos) {
      for (long seen : firstSeenNanos.values()) {
        offsets.add((seen - originNanos) / 1_000_000);
      }
    }
    Collections.sort(offsets);
    return offsets;
  }

  private List<Integer> established() {
    List<Integer> ports = new ArrayList<>();
    String address = broker.getAddress().getHostAddress();
    for (Path table : tables) {
      List<String> lines;
      try {
        lines = Files.readAllLines(table);
      } catch (IOException e) {
        continue;
      }
      for (ProcNetTcp.Entry e : parser.parse(lines)) {
        if (e.state() == TcpState.ESTABLISHED
            && e.remote().getPort() == broker.getPort()
            && e.remote().getAddress().getHostAddress().replace("::ffff:", "").equals(address)) {
          ports.add(e.local().getPort());
        }
      }
    }
    return ports;
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.join(2000);
  }
}
