package io.faultline.agent.kafka;

import io.faultline.agent.export.HtmlWriter;
import io.faultline.agent.export.StatusSection;
import io.faultline.kafka.ClientTags;
import io.faultline.kafka.KafkaMeters;
import io.faultline.kafka.connection.BrokerConnection;
import io.faultline.kafka.connection.TcpFacts;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The status page's "Broker connections": one row per connection the Kafka clients of this JVM hold
 * (client, node, address, window scaling, RTT, the broker's window, the throughput ceiling), then
 * the request phases per client and node (mean and max of each phase since start).
 */
final class BrokerConnectionsSection implements StatusSection {

  private static final List<String> PHASES =
      List.of("queue", "transmit", "delivery", "response", "response_incl_delivery", "receive");

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
    // client.id / node.id / api -> phase -> "mean / max"
    Map<String, Map<String, String>> byRow = new TreeMap<>();
    for (Timer t : clients.runtime().meters().find(KafkaMeters.REQUEST_PHASE.name()).timers()) {
      if (t.count() == 0) {
        continue;
      }
      String row =
          t.getId().getTag("client.id")
              + " → node "
              + t.getId().getTag("node.id")
              + " "
              + t.getId().getTag("api")
              + " ("
              + t.count()
              + ")";
      byRow
          .computeIfAbsent(row, k -> new TreeMap<>())
          .put(
              t.getId().getTag("phase"),
              String.format(
                  Locale.ROOT,
                  "%.2f / %.2f",
                  t.mean(TimeUnit.MILLISECONDS),
                  t.max(TimeUnit.MILLISECONDS)));
    }
    if (byRow.isEmpty()) {
      return;
    }
    List<List<String>> rows = new ArrayList<>();
    for (Map.Entry<String, Map<String, String>> e : byRow.entrySet()) {
      List<String> row = new ArrayList<>();
      row.add(e.getKey());
      for (String phase : PHASES) {
        row.add(e.getValue().getOrDefault(phase, ""));
      }
      rows.add(row);
    }
    List<String> headers = new ArrayList<>();
    headers.add("client → node, api (requests)");
    PHASES.forEach(p -> headers.add(p + " ms"));
    html.paragraph(
        "Request phases, mean / max in milliseconds since start (client.id tag "
            + ClientTags.MAX_CLIENT_ID_LENGTH
            + " characters at most):");
    html.table(headers, rows);
  }
}
