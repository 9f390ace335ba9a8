package io.faultline.it.agent;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

/** Reads the agent's endpoint of a child JVM. */
final class Http {

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private Http() {}

  /** GETs {@code url}, retrying until it answers 200 or {@code timeout} passes. */
  static HttpResponse<String> awaitOk(String url, Duration timeout) throws InterruptedException {
    Instant deadline = Instant.now().plus(timeout);
    Exception last = null;
    while (Instant.now().isBefore(deadline)) {
      try {
        HttpResponse<String> response = get(url);
        if (response.statusCode() == 200) {
          return response;
        }
        last = new IOException("HTTP " + response.statusCode() + ": " + response.body());
      } catch (IOException e) {
        last = e;
      }
      Thread.sleep(100);
    }
    throw new AssertionError(url + " did not answer 200 within " + timeout, last);
  }

  /**
   * Scrapes {@code url} (a {@code /metrics} endpoint) until {@code done} holds for what it returns,
   * at most {@code timeout}; returns the last scrape either way, for the caller's assertions to
   * judge (and to name what was missing).
   */
  static String awaitMetrics(
      String url, Duration timeout, java.util.function.Predicate<PrometheusText> done)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(timeout);
    String body = awaitOk(url, timeout).body();
    while (!done.test(PrometheusText.parse(body)) && Instant.now().isBefore(deadline)) {
      Thread.sleep(100);
      body = awaitOk(url, timeout).body();
    }
    return body;
  }

  /**
   * GETs {@code url} until the body contains {@code text} (the child raises its test finding right
   * after start, on its main thread).
   */
  static HttpResponse<String> awaitBodyContaining(String url, String text, Duration timeout)
      throws InterruptedException, IOException {
    Instant deadline = Instant.now().plus(timeout);
    HttpResponse<String> response = awaitOk(url, timeout);
    while (!response.body().contains(text) && Instant.now().isBefore(deadline)) {
      Thread.sleep(100);
      response = get(url);
    }
    return response;
  }

  static HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return CLIENT.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A port that was free a moment ago. */
  static int freePort() {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
