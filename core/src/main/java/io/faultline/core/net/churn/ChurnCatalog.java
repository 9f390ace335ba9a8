package io.faultline.core.net.churn;

import io.faultline.core.finding.FindingCatalog;
import io.faultline.core.finding.FindingType;
import io.faultline.core.finding.Incident;
import io.faultline.core.finding.Severity;
import io.faultline.core.metrics.MeterCatalog;
import io.faultline.core.metrics.MeterDoc;
import java.util.List;

/** The finding and meters of connection-churn tracking. */
public final class ChurnCatalog implements FindingCatalog, MeterCatalog {

  /** A destination receiving new connections fast enough to run the ephemeral ports out. */
  public static final FindingType NET_CONNECTION_CHURN =
      new FindingType(
          "NET_CONNECTION_CHURN",
          Severity.WARNING,
          "New outbound connections to one destination at a rate that fills the ephemeral ports"
              + " with TIME_WAIT sockets",
          "The Elastic Beanstalk port exhaustion: a proxy opened a new connection per request to"
              + " its backend; about 27,000 sockets sat in TIME_WAIT, the ephemeral port range ran"
              + " out, and connect() failed with 'Cannot assign requested address' (errno 99)."
              + " Every connection this side closes first stays in TIME_WAIT for 60 s, so rate x"
              + " 60 s is how many ports that destination keeps busy.",
          "Reuse connections: HTTP keep-alive, a connection pool, one long-lived client instead of"
              + " one per request. Meanwhile net.ipv4.tcp_tw_reuse=1 lets outbound connects take a"
              + " TIME_WAIT port and a wider net.ipv4.ip_local_port_range buys time.",
          Incident.ELASTIC_BEANSTALK_PORTS);

  /** New connections per destination. */
  public static final MeterDoc CONNECTS =
      new MeterDoc(
          "faultline.net.connects",
          MeterDoc.Type.COUNTER,
          "connections",
          List.of("destination"),
          "New outbound TCP connections this JVM opened to the destination (host:port; 'other'"
              + " beyond net.churn.max-destinations).",
          ChurnKeys.FEATURE);

  /** The last measured connect rate per destination. */
  public static final MeterDoc CONNECT_RATE =
      new MeterDoc(
          "faultline.net.connect.rate",
          MeterDoc.Type.GAUGE,
          "connections/s",
          List.of("destination"),
          "New outbound TCP connections per second to the destination over the last"
              + " net.churn.interval.",
          ChurnKeys.FEATURE);

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public ChurnCatalog() {}

  @Override
  public List<FindingType> findingTypes() {
    return List.of(NET_CONNECTION_CHURN);
  }

  @Override
  public List<MeterDoc> meters() {
    return List.of(CONNECTS, CONNECT_RATE);
  }
}
