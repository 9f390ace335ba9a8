package io.faultline.agent.kafka;

import io.faultline.agent.export.HtmlWriter;
import io.faultline.agent.export.StatusSection;
import io.faultline.kafka.ClientTags;
import io.faultline.kafka.connection.BrokerConnection;
import io.faultline.kafka.connection.TcpFacts;
import io.faultline.kafka.phase.ClientPhases;
import io.faultline.kafka.phase.Phase;
import io.faultline.kafka.phase.PhaseHistogram;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The status page's "Broker connections": one row per connection the Kafka clients of this JVM hold
 * (client, node, address, window scaling, RTT, the broker's window, the throughput ceiling), then
 * the request phases per client, node and API (p50 and p99 of each phase since start).
 */
final class BrokerConnectionsSection implements StatusSection {

  private final KafkaClients clients;

  BrokerConnectionsSection(KafkaClients clients) {
    this.clients = clients;
  }

  @Override
  public String title() {
    return "Broker connections";
  }

  @Override
  public int order() {
    return 300;
  }

  @Override
  public void render(HtmlWriter html) {
    Map<String, BrokerConnection> connections = new TreeMap<>(clients.connections());
    if (connections.isEmpty()) {
      html.note("No Kafka broker connections yet.");
    } else {
      List<List<String>> rows = new ArrayList<>();
      for (BrokerConnection c : connections.values()) {
        TcpFacts f = c.latest().orElse(null);
        rows.add(
            List.of(
                c.clientId(),
                c.nodeId(),
                c.remote().getHostString() + ":" + c.remote().getPort(),
                f == null
                    ? "not sampled yet"
                    : f.windowScaling()
                        ? "yes (" + f.info().sndWscale() + "," + f.info().rcvWscale() + ")"
                        : "NO",
                f == null ? "" : String.format(Locale.ROOT, "%.2f ms", f.rttMicros() / 1000.0),
                f == null
                    ? ""
                    : f.info().sndWnd().isPresent() ? f.info().sndWnd().getAsLong() + " B" : "n/a",
                f == null
                    ? ""
                    : f.ceilingBytesPerSecond().isPresent()
                        ? String.format(
                            Locale.ROOT,
                            "%.1f MiB/s",
                            f.ceilingBytesPerSecond().getAsDouble() / (1 << 20))
                        : "n/a",
                c.lastProblem().orElse("")));
      }
      html.table(
          List.of(
              "client",
              "node",
              "address",
              "window scaling",
              "RTT",
              "peer window",
              "ceiling",
              "problem"),
          rows);
    }
    renderPhases(html);
  }

  private void renderPhases(HtmlWriter html) {
    // "client → node n, api (requests)" -> phase -> "p50 / p99"
    Map<String, Map<Phase, String>> byRow = new TreeMap<>();
    for (KafkaClient client : clients.clients()) {
      ClientPhases phases = client.phases();
      if (phases == null) {
        continue;
      }
      String clientId = ClientTags.clientId(client.clientId());
      for (var node : phases.distributions().entrySet()) {
        for (var api : node.getValue().entrySet()) {
          PhaseHistogram.Snapshot queue = api.getValue().get(Phase.QUEUE);
          long requests = queue == null ? 0 : queue.count();
          String row =
              clientId + " → node " + node.getKey() + " " + api.getKey() + " (" + requests + ")";
          Map<Phase, String> cells = byRow.computeIfAbsent(row, k -> new TreeMap<>());
          for (var phase : api.getValue().entrySet()) {
            PhaseHistogram.Snapshot h = phase.getValue();
            cells.put(
                phase.getKey(),
                String.format(
                    Locale.ROOT,
                    "%s / %s",
                    millis(h.percentileNanos(0.50)),
                    millis(h.percentileNanos(0.99))));
          }
        }
      }
    }
    if (byRow.isEmpty()) {
      return;
    }
    List<List<String>> rows = new ArrayList<>();
    for (Map.Entry<String, Map<Phase, String>> e : byRow.entrySet()) {
      List<String> row = new ArrayList<>();
      row.add(e.getKey());
      for (Phase phase : Phase.values()) {
        row.add(e.getValue().getOrDefault(phase, ""));
      }
      rows.add(row);
    }
    List<String> headers = new ArrayList<>();
    headers.add("client → node, api (requests)");
    for (Phase phase : Phase.values()) {
      headers.add(phase.tagValue() + " ms");
    }
    html.paragraph(
        "Request phases since start, p50 / p99 in milliseconds (log-linear buckets: within 12.5 %;"
            + " client.id "
            + ClientTags.MAX_CLIENT_ID_LENGTH
            + " characters at most):");
    html.table(headers, rows);
  }

  private static String millis(long nanos) {
    double ms = nanos / 1e6;
    return String.format(Locale.ROOT, ms < 10 ? "%.2f" : "%.0f", ms);
  }
}
