package io.faultline.examples.container;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small service with no Faultline code: it serves {@code /orders} on port 8080 and calls itself
 * twenty times a second with a new TCP connection per request (keep-alive off), the churn pattern
 * the agent's {@code net.churn} feature reports. It prints a line every 100 requests.
 */
public final class OrdersApp {

  private OrdersApp() {}

  /** Runs until the JVM is stopped. */
  public static void main(String[] args) throws Exception {
    // The anti-pattern on purpose: no connection reuse, so every request is a new connection.
    System.setProperty("http.keepAlive", "false");
    AtomicLong served = new AtomicLong();
    HttpServer server = HttpServer.create(new InetSocketAddress(8080), 50);
    server.createContext(
        "/orders",
        exchange -> {
          byte[] body = "{\"orders\":[]}".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
          served.incrementAndGet();
        });
    server.start();
    System.out.println("orders-app: serving http://0.0.0.0:8080/orders");
    URI self = URI.create("http://127.0.0.1:8080/orders");
    for (long sent = 1; ; sent++) {
      try {
        HttpURLConnection c = (HttpURLConnection) self.toURL().openConnection();
        try (InputStream in = c.getInputStream()) {
          in.readAllBytes();
        }
        c.disconnect();
      } catch (IOException e) {
        System.out.println("orders-app: request failed: " + e);
      }
      if (sent % 100 == 0) {
        System.out.println("orders-app: " + served.get() + " requests served");
      }
      Thread.sleep(50);
    }
  }
}
