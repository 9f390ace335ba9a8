package io.faultline.agent.export;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The agent's HTTP endpoint on the JDK's own server: {@code /metrics} (Prometheus text), {@code
 * /faultline/findings} and {@code /faultline/agent} (JSON), and the status page at {@code /}. One
 * daemon thread serves it, so it never keeps the application's JVM alive.
 */
public final class ScrapeEndpoint implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(ScrapeEndpoint.class.getName());

  /** A response body and its content type. */
  public record Body(String contentType, Supplier<String> text) {
    /** Requires both. */
    public Body {
      Objects.requireNonNull(contentType, "contentType");
      Objects.requireNonNull(text, "text");
    }
  }

  private final HttpServer server;
  private final ExecutorService executor;

  private ScrapeEndpoint(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Binds {@code host:port} and serves {@code routes} (exact paths; {@code /} also answers 404 for
   * unknown paths). Throws {@link IOException} when the address cannot be bound.
   */
  public static ScrapeEndpoint start(String host, int port, Map<String, Body> routes)
      throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 16);
    ExecutorService executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "faultline-http");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(executor);
    server.createContext("/", exchange -> serve(exchange, routes));
    // The server's dispatcher thread inherits daemon status from the thread that starts it.
    Thread starter = new Thread(server::start, "faultline-http-start");
    starter.setDaemon(true);
    starter.start();
    try {
      starter.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return new ScrapeEndpoint(server, executor);
  }

  /** The bound port (useful with port 0 in tests). */
  public int port() {
    return server.getAddress().getPort();
  }

  private static void serve(HttpExchange exchange, Map<String, Body> routes) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      Body body = routes.get(path);
      int status = 200;
      String text;
      String type;
      if (body == null) {
        status = 404;
        type = "text/plain; charset=utf-8";
        text = "faultline: no such page " + path + "; try / " + routes.keySet() + "\n";
      } else if (!"GET".equals(exchange.getRequestMethod())
          && !"HEAD".equals(exchange.getRequestMethod())) {
        status = 405;
        type = "text/plain; charset=utf-8";
        text = "faultline: only GET\n";
      } else {
        type = body.contentType();
        try {
          text = body.text().get();
        } catch (RuntimeException | LinkageError e) {
          LOG.log(Level.WARNING, "faultline: rendering " + path + " failed", e);
          status = 500;
          type = "text/plain; charset=utf-8";
          text = "faultline: rendering " + path + " failed: " + e + "\n";
        }
      }
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", type);
      exchange.getResponseHeaders().set("Cache-Control", "no-store");
      boolean head = "HEAD".equals(exchange.getRequestMethod());
      exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
      if (!head) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
