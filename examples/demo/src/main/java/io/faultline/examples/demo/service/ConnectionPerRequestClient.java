package io.faultline.examples.demo.service;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The Elastic Beanstalk port exhaustion's side of the service: a backend on loopback (a JDK {@code
 * HttpServer}) and a client that opens a new TCP connection for every request and closes it after
 * the response — no keep-alive, no pool — so each request leaves a socket in TIME_WAIT.
 */
final class ConnectionPerRequestClient {

  /** Sends {@code perSecond} requests a second for {@code seconds} seconds. */
  Map<String, Object> run(int seconds, int perSecond) throws IOException, InterruptedException {
    HttpServer backend =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    backend.setExecutor(Executors.newFixedThreadPool(2));
    byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
    backend.createContext(
        "/",
        exchange -> {
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    backend.start();
    int port = backend.getAddress().getPort();
    long requests = 0;
    long failures = 0;
    try {
      long period = TimeUnit.SECONDS.toNanos(1) / perSecond;
      long start = System.nanoTime();
      long end = start + TimeUnit.SECONDS.toNanos(seconds);
      for (long next = start; next < end; next += period) {
        long wait = next - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        try {
          request(port);
          requests++;
        } catch (IOException e) {
          failures++;
        }
      }
    } finally {
      backend.stop(0);
      ((java.util.concurrent.ExecutorService) backend.getExecutor()).shutdownNow();
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("destination", "127.0.0.1:" + port);
    result.put("requests", requests);
    result.put("failures", failures);
    return result;
  }

  private static void request(int port) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
      socket.setSoTimeout(5000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET / HTTP/1.1\r\nHost: backend\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[512];
      while (in.read(buffer) >= 0) {
        // read to the end: the server closes after the response
      }
    }
  }
}
