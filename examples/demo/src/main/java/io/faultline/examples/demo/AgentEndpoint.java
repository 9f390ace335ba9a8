package io.faultline.examples.demo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/** The service agent's HTTP endpoint: its findings, its metrics and the status page address. */
final class AgentEndpoint {

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final int port;

  AgentEndpoint(int port) {
    this.port = port;
  }

  String statusPage() {
    return "http://127.0.0.1:" + port + "/";
  }

  /** The active findings; empty when the endpoint does not answer. */
  List<FindingView> findings() {
    return get("/faultline/findings").map(FindingView::parseAll).orElse(List.of());
  }

  /** A scrape of {@code /metrics}, empty when the endpoint does not answer. */
  Optional<String> metricsText() {
    return get("/metrics");
  }

  PrometheusText metrics() {
    return PrometheusText.parse(metricsText().orElse(""));
  }

  /**
   * Polls the findings until one matching {@code wanted} is active or {@code timeout} passes,
   * calling {@code tick} between polls.
   */
  Optional<FindingView> awaitFinding(
      Predicate<FindingView> wanted, Duration timeout, Runnable tick) {
    long deadline = System.nanoTime() + timeout.toNanos();
    do {
      Optional<FindingView> found = findings().stream().filter(wanted).findFirst();
      if (found.isPresent()) {
        return found;
      }
      tick.run();
      KafkaBroker.sleep(250);
      tick.run();
      KafkaBroker.sleep(250);
    } while (System.nanoTime() < deadline);
    return Optional.empty();
  }

  private Optional<String> get(String path) {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 ? Optional.of(response.body()) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
