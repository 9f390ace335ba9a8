package io.faultline.it.agent;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the client JVMs' reconnect gates decided for one broker node, summed over their agents'
 * Prometheus endpoints ({@code faultline.kafka.connect.attempts{node.id, outcome}}): the lab's
 * cross-check that the connections the broker's kernel counted went through the gate, and by which
 * path (a bypass shows up as {@code immediate} or {@code first}).
 */
record GateTally(
    Map<String, Long> outcomes,
    long delays,
    double delaySumSeconds,
    double delayMaxSeconds,
    int unread) {

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /**
   * Scrapes every endpoint now (a scrape of 250 clients' meters takes seconds on a busy machine);
   * an endpoint that does not answer is counted in {@link #unread}.
   */
  static GateTally scrape(List<Integer> ports, int nodeId) throws InterruptedException {
    Map<String, Long> outcomes = new TreeMap<>();
    long delays = 0;
    double delaySum = 0;
    double delayMax = 0;
    int unread = 0;
    for (int port : ports) {
      PrometheusText text;
      try {
        HttpRequest request =
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(60))
                .build();
        text = PrometheusText.parse(CLIENT.send(request, BodyHandlers.ofString()).body());
      } catch (IOException e) {
        unread++;
        continue;
      }
      for (PrometheusText.Sample s :
          text.find(
              "faultline_kafka_connect_attempts_total",
              Map.of("node_id", Integer.toString(nodeId)))) {
        outcomes.merge(s.labels().get("outcome"), (long) s.value(), Long::sum);
      }
      delays += (long) text.sum("faultline_kafka_stagger_delay_seconds_count", Map.of());
      delaySum += text.sum("faultline_kafka_stagger_delay_seconds_sum", Map.of());
      for (PrometheusText.Sample s :
          text.find("faultline_kafka_stagger_delay_seconds_max", Map.of())) {
        delayMax = Math.max(delayMax, s.value());
      }
    }
    return new GateTally(outcomes, delays, delaySum, delayMax, unread);
  }

  /** The decisions between {@code before} and this tally. */
  GateTally since(GateTally before) {
    Map<String, Long> diff = new TreeMap<>();
    outcomes.forEach((k, v) -> diff.put(k, v - before.outcomes().getOrDefault(k, 0L)));
    return new GateTally(
        diff,
        delays - before.delays(),
        delaySumSeconds - before.delaySumSeconds(),
        delayMaxSeconds, // Micrometer's max of the last minutes: the election's delays dominate it
        unread + before.unread());
  }

  /**
   * {@code after_delay 480, ...; delay from want to connect: mean 1.52 s, longest 3.01 s}, or "-"
   * when nothing.
   */
  String describe() {
    StringBuilder out = new StringBuilder();
    outcomes.forEach(
        (k, v) -> {
          if (v != 0) {
            out.append(out.length() == 0 ? "" : ", ").append(k).append(' ').append(v);
          }
        });
    if (delays > 0) {
      out.append(
          String.format(
              java.util.Locale.ROOT,
              "; delay from want to connect: mean %.2f s, longest %.2f s",
              delaySumSeconds / delays,
              delayMaxSeconds));
    }
    if (unread > 0) {
      out.append(out.length() == 0 ? "" : "; ").append(unread).append(" scrapes failed");
    }
    return out.length() == 0 ? "-" : out.toString();
  }
}
