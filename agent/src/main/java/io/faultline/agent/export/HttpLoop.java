package io.faultline.agent.export;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A small HTTP/1.1 server: one selector thread reads every connection's request head and writes
 * every response without blocking, a few worker threads render responses. One request per
 * connection; every response closes it.
 *
 * <p>Why not the JDK's {@code com.sun.net.httpserver}: it reads a request's head on a thread of its
 * executor, so every client that never finishes its head holds a worker until it is cut. Its limits
 * exist (on JDK 17.0.15 and 25: {@code sun.net.httpserver.maxReqTime}, {@code maxRspTime}, {@code
 * idleInterval}, {@code maxIdleConnections}, {@code maxReqHeaders}, {@code
 * jdk.httpserver.maxConnections}; older 17 updates lack some) but are JVM-wide system properties
 * read once, when the first server class loads: setting them from an agent would change the
 * application's own servers, and an application that set them first would change ours. Here every
 * limit is this server's own:
 *
 * <ul>
 *   <li>a head must arrive complete within {@link Limits#headDeadlineMillis} of the connect,
 *       however it trickles in (an absolute deadline, not a per-read timeout), and fit in {@link
 *       Limits#maxHeadBytes};
 *   <li>at most {@link Limits#maxConnections} connections are open; one more is closed at once;
 *   <li>a response must be taken by the client within {@link Limits#writeDeadlineMillis};
 *   <li>reading heads and writing responses never occupies a worker, so idle or slow clients cannot
 *       delay anyone else's request: a request waits only for the renders ahead of it.
 * </ul>
 *
 * Every thread is a daemon; {@link #close()} closes every connection and ends every thread.
 */
final class HttpLoop implements AutoCloseable {

  /** The server's limits. */
  record Limits(
      long headDeadlineMillis,
      int maxHeadBytes,
      int maxConnections,
      long writeDeadlineMillis,
      int workers) {

    static final Limits DEFAULT = new Limits(2_000, 8 * 1024, 64, 10_000, 3);
  }

  private static final long SWEEP_MILLIS = 50;
  private static final int BACKLOG = 256;

  private final ServerSocketChannel server;
  private final Selector selector;
  private final Function<HttpRequestHead, HttpResponse> handler;
  private final Limits limits;
  private final ThreadPoolExecutor workers;
  private final Queue<Runnable> fromWorkers = new ConcurrentLinkedQueue<>();
  private final Thread thread;
  private volatile boolean closing;
  private int open;
  private boolean acceptPaused;
  // Rounds of the selector loop; written by its thread alone, read by tests.
  private volatile long rounds;

  /** One connection's state; touched only on the selector thread. */
  private static final class Connection {
    final SocketChannel channel;
    final ByteBuffer in;
    long deadlineNanos;
    int scanned;
    ByteBuffer out;

    Connection(SocketChannel channel, int maxHead, long deadlineNanos) {
      this.channel = channel;
      this.in = ByteBuffer.allocate(maxHead);
      this.deadlineNanos = deadlineNanos;
    }
  }

  private HttpLoop(
      ServerSocketChannel server,
      Selector selector,
      Function<HttpRequestHead, HttpResponse> handler,
      Limits limits) {
    this.server = server;
    this.selector = selector;
    this.handler = handler;
    this.limits = limits;
    this.workers =
        new ThreadPoolExecutor(
            limits.workers(),
            limits.workers(),
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(limits.maxConnections()),
            r -> daemon(r, "faultline-http-worker"));
    this.thread = daemon(this::run, "faultline-http");
  }

  /** Binds {@code address} and starts serving. */
  static HttpLoop start(
      InetSocketAddress address, Function<HttpRequestHead, HttpResponse> handler, Limits limits)
      throws IOException {
    ServerSocketChannel server = ServerSocketChannel.open();
    Selector selector = null;
    try {
      // A queue longer than the cap: a burst of connects waits for the selector, not for SYN
      // retransmission (a dropped SYN is retried after a whole second).
      server.bind(address, BACKLOG);
      server.configureBlocking(false);
      selector = Selector.open();
      server.register(selector, SelectionKey.OP_ACCEPT);
    } catch (IOException | RuntimeException e) {
      server.close();
      if (selector != null) {
        selector.close();
      }
      throw e;
    }
    HttpLoop loop = new HttpLoop(server, selector, handler, limits);
    loop.thread.start();
    return loop;
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  /** How many times the selector thread has gone round its loop. */
  long rounds() {
    return rounds;
  }

  /** The bound port. */
  int port() {
    return server.socket().getLocalPort();
  }

  private void run() {
    long nextSweep = System.nanoTime();
    try {
      while (!closing) {
        // With no connection open there is no deadline to sweep: sleep until a connect or a
        // worker's wake-up, not 20 times a second in every process that never gets scraped.
        selector.select(open > 0 || acceptPaused ? SWEEP_MILLIS : 0);
        rounds++; // this thread alone writes it
        Runnable task;
        while ((task = fromWorkers.poll()) != null) {
          task.run();
        }
        Iterator<SelectionKey> selected = selector.selectedKeys().iterator();
        while (selected.hasNext()) {
          SelectionKey key = selected.next();
          selected.remove();
          handle(key);
        }
        long now = System.nanoTime();
        if (now - nextSweep >= 0) {
          sweep(now);
          nextSweep = now + TimeUnit.MILLISECONDS.toNanos(SWEEP_MILLIS);
        }
      }
    } catch (IOException | ClosedSelectorException e) {
      // the selector failed or was closed: nothing more can be served
    } finally {
      shutDown();
    }
  }

  private void handle(SelectionKey key) {
    if (!key.isValid()) {
      return;
    }
    try {
      if (key.isAcceptable()) {
        accept(key);
      } else if (key.isReadable()) {
        read(key);
      } else if (key.isWritable()) {
        write(key);
      }
    } catch (IOException | RuntimeException e) {
      if (key.channel() != server) {
        close(key);
      }
      // the listening socket itself is never given up over one failed connection
    }
  }

  private void accept(SelectionKey serverKey) {
    SocketChannel channel;
    // A bounded batch per round, so a flood of connects cannot starve the reads and writes.
    for (int batch = 0; batch < limits.maxConnections(); batch++) {
      try {
        channel = server.accept();
      } catch (IOException e) {
        // Out of descriptors, say: stop accepting until the next sweep instead of spinning.
        serverKey.interestOps(0);
        acceptPaused = true;
        return;
      }
      if (channel == null) {
        return;
      }
      if (open >= limits.maxConnections()) {
        // Over the cap: closed before a byte is read, so a flood costs no more than the accept.
        closeQuietly(channel);
        continue;
      }
      try {
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        long deadline =
            System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.headDeadlineMillis());
        channel.register(
            selector,
            SelectionKey.OP_READ,
            new Connection(channel, limits.maxHeadBytes(), deadline));
        open++;
      } catch (IOException | RuntimeException e) {
        closeQuietly(channel);
      }
    }
  }

  private static void closeQuietly(SocketChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  private void read(SelectionKey key) throws IOException {
    Connection c = (Connection) key.attachment();
    int n = c.channel.read(c.in);
    if (n < 0) {
      close(key);
      return;
    }
    int end = headEnd(c);
    if (end < 0) {
      if (!c.in.hasRemaining()) {
        respond(key, HttpResponse.text(431, "faultline: request head too large\n"), false);
      }
      return;
    }
    key.interestOps(0);
    HttpRequestHead head;
    try {
      head =
          HttpRequestHead.parse(
              c.in.array(), end, address(c.channel.getRemoteAddress()), localAddress(c.channel));
    } catch (HttpRequestHead.Malformed e) {
      respond(key, HttpResponse.text(400, "faultline: " + e.getMessage() + "\n"), false);
      return;
    }
    try {
      workers.execute(() -> render(key, head));
    } catch (RejectedExecutionException e) {
      respond(key, HttpResponse.text(503, "faultline: busy, try again\n"), head.isHead());
    }
  }

  /** The length of the head before its empty line, or -1 while it is incomplete. */
  private static int headEnd(Connection c) {
    byte[] b = c.in.array();
    int limit = c.in.position();
    for (int i = Math.max(c.scanned, 1); i < limit; i++) {
      if (b[i] == '\n') {
        if (b[i - 1] == '\n') {
          return i - 1;
        }
        if (i >= 3 && b[i - 1] == '\r' && b[i - 2] == '\n' && b[i - 3] == '\r') {
          return i - 3;
        }
      }
    }
    c.scanned = Math.max(1, limit);
    return -1;
  }

  private static InetAddress address(java.net.SocketAddress address) {
    return address instanceof InetSocketAddress inet ? inet.getAddress() : null;
  }

  private static InetAddress localAddress(SocketChannel channel) throws IOException {
    return address(channel.getLocalAddress());
  }

  /** On a worker: renders, then hands the bytes back to the selector thread. */
  private void render(SelectionKey key, HttpRequestHead head) {
    HttpResponse response;
    try {
      response = handler.apply(head);
    } catch (RuntimeException | LinkageError e) {
      response = HttpResponse.text(500, "faultline: rendering failed\n");
    }
    byte[] bytes = response.bytes(head.isHead());
    fromWorkers.add(() -> startWrite(key, bytes));
    selector.wakeup();
  }

  private void respond(SelectionKey key, HttpResponse response, boolean head) {
    startWrite(key, response.bytes(head));
  }

  private void startWrite(SelectionKey key, byte[] bytes) {
    if (!key.isValid()) {
      return;
    }
    Connection c = (Connection) key.attachment();
    c.out = ByteBuffer.wrap(bytes);
    c.deadlineNanos =
        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.writeDeadlineMillis());
    try {
      key.interestOps(SelectionKey.OP_WRITE);
      write(key);
    } catch (IOException | RuntimeException e) {
      close(key);
    }
  }

  private void write(SelectionKey key) throws IOException {
    Connection c = (Connection) key.attachment();
    c.channel.write(c.out);
    if (!c.out.hasRemaining()) {
      close(key);
    }
  }

  /** Closes every connection past its deadline: a head not complete, a response not taken. */
  private void sweep(long now) {
    if (acceptPaused) {
      acceptPaused = false;
      server.keyFor(selector).interestOps(SelectionKey.OP_ACCEPT);
    }
    for (SelectionKey key : selector.keys()) {
      if (key.isValid()
          && key.attachment() instanceof Connection c
          && key.interestOps() != 0
          && now - c.deadlineNanos >= 0) {
        close(key);
      }
    }
  }

  private void close(SelectionKey key) {
    key.cancel();
    if (key.attachment() instanceof Connection c) {
      try {
        c.channel.close();
      } catch (IOException e) {
        // closing anyway
      }
      key.attach(null);
      open--;
    }
  }

  private void shutDown() {
    workers.shutdownNow();
    try {
      for (SelectionKey key : selector.keys()) {
        close(key);
      }
    } catch (ClosedSelectorException e) {
      // already closed
    }
    try {
      server.close();
    } catch (IOException e) {
      // closing anyway
    }
    try {
      selector.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  /** Stops serving: every connection closed, the port free and every thread ended on return. */
  @Override
  public void close() {
    closing = true;
    selector.wakeup();
    if (Thread.currentThread() != thread) {
      try {
        thread.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
