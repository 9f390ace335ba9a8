package io.faultline.kafka;

import io.faultline.core.finding.FindingCatalog;
import io.faultline.core.finding.FindingType;
import io.faultline.core.finding.Incident;
import io.faultline.core.finding.Severity;
import java.util.List;

/** The findings kafka-guard raises. Ids are stable: dashboards and docs refer to them. */
public final class KafkaFindingTypes implements FindingCatalog {

  /** A broker connection without window scaling. */
  public static final FindingType KAFKA_WINDOW_SCALING_OFF =
      new FindingType(
          "KAFKA_WINDOW_SCALING_OFF",
          Severity.WARNING,
          "A broker connection has no TCP window scaling: its throughput is capped at window / RTT",
          "The Tencent CKafka incident: connections set up through SYN cookies behind a NAT that"
              + " stripped TCP timestamps lost window scaling; a 64 KiB window over a 200 ms RTT"
              + " moved 300 KB/s on a 225 Mbps link until the task was restarted.",
          "Find why the handshake lost the option (SYN cookies on the broker: SyncookiesSent;"
              + " timestamps stripped by a middlebox; net.ipv4.tcp_window_scaling=0), fix the"
              + " broker's listen backlog, and reconnect the client (kafka.recycle=on does it"
              + " for you).",
          Incident.TENCENT_CKAFKA);

  /** The peer's window holds data back and never opens: a window scale that does not work. */
  public static final FindingType KAFKA_PEER_WINDOW_COLLAPSED =
      new FindingType(
          "KAFKA_PEER_WINDOW_COLLAPSED",
          Severity.WARNING,
          "The broker's window has held this client's data back for seconds and never opened past"
              + " 64 KiB",
          "The LINE Kafka incident: after a SYN-cookie handshake on Linux before 5.10 the broker"
              + " used a different window scale than it announced, producers saw a ~1.5 KB window"
              + " and waited one RTT per packet: 16 s requests while broker metrics looked normal.",
          "Check the broker's kernel for the SYN-cookie window-scale fix (909172a14974), stop the"
              + " SYN cookies (listen backlog, staggered reconnects) and reconnect the client.",
          Incident.LINE_KAFKA);

  /** A node whose time before the broker has the request dominates. */
  public static final FindingType KAFKA_TRANSMIT_BOUND =
      new FindingType(
          "KAFKA_TRANSMIT_BOUND",
          Severity.WARNING,
          "Requests to one broker spend most of their time before the broker has them",
          "The LINE Kafka incident: the latency was in sending the request through a tiny TCP"
              + " window, before the broker's own request timer starts, so broker-side metrics"
              + " could not see it.",
          "Look at this node's connection TCP facts (window scaling, snd_wnd, RTT, retransmits)"
              + " and the path to the broker; compare with the healthy nodes.",
          Incident.LINE_KAFKA);

  /** Socket buffers below the bandwidth-delay product. */
  public static final FindingType KAFKA_SOCKET_BUFFER_BELOW_BDP =
      new FindingType(
          "KAFKA_SOCKET_BUFFER_BELOW_BDP",
          Severity.WARNING,
          "A client socket buffer is smaller than the link's bandwidth-delay product",
          "The Tencent CKafka incident: 64 KiB socket buffers over a 200 ms ocean crossing cap a"
              + " connection at about 320 KB/s, whatever the link's bandwidth.",
          "Set send.buffer.bytes / receive.buffer.bytes to -1 (kernel autotuning) and make sure"
              + " net.ipv4.tcp_wmem / tcp_rmem allow the bandwidth-delay product; on the broker,"
              + " socket.receive.buffer.bytes (100 KiB by default) caps the window too.",
          Incident.TENCENT_CKAFKA);

  /** Reconnect backoff without jitter. */
  public static final FindingType KAFKA_RECONNECT_BACKOFF_NO_JITTER =
      new FindingType(
          "KAFKA_RECONNECT_BACKOFF_NO_JITTER",
          Severity.INFO,
          "reconnect.backoff.ms is set without reconnect.backoff.max.ms: reconnects are constant,"
              + " without jitter",
          "The LINE Kafka incident: clients that reconnect in lockstep after a broker restart fill"
              + " its SYN queue; when only reconnect.backoff.ms is set Kafka makes the maximum"
              + " equal to it, and an exponential backoff whose maximum equals its start has no"
              + " jitter.",
          "Also set reconnect.backoff.max.ms well above reconnect.backoff.ms (or use"
              + " StaggeredBackoffConfig), and use the agent's reconnect gate for the"
              + " post-election burst.",
          Incident.LINE_KAFKA);

  /** A connection was recycled. */
  public static final FindingType KAFKA_CONNECTION_RECYCLED =
      new FindingType(
          "KAFKA_CONNECTION_RECYCLED",
          Severity.INFO,
          "Faultline closed a crippled broker connection so the client reconnects",
          "The Tencent CKafka incident: restarting the task, and with it its broker connections,"
              + " was what fixed the 300 KB/s replication; kafka.recycle does that for one"
              + " connection.",
          "Nothing, if the new connection is healthy; if connections keep coming back crippled,"
              + " fix the broker side (SYN cookies, timestamps, listen backlog).",
          Incident.TENCENT_CKAFKA);

  /**
   * A broker connection whose sent data goes unacknowledged for seconds while the kernel
   * retransmits it: the path drops packets.
   */
  public static final FindingType KAFKA_BROKER_LINK_STALLED =
      new FindingType(
          "KAFKA_BROKER_LINK_STALLED",
          Severity.WARNING,
          "Data sent to a broker goes unacknowledged for seconds while the kernel retransmits it",
          "A dropped or black-holed path (a firewall rule, a failed link, a routing change, a"
              + " crashed broker host) looks to the client like a slow broker: requests wait until"
              + " request.timeout.ms, then the client reconnects into SYN timeouts. The broker may"
              + " never have received these requests, so its own metrics can show nothing.",
          "Check the network path between this host and the broker (security groups, nft or"
              + " iptables rules, link state, routes); the finding clears once a connection to the"
              + " broker is acknowledged again.");

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public KafkaFindingTypes() {}

  @Override
  public List<FindingType> findingTypes() {
    return List.of(
        KAFKA_WINDOW_SCALING_OFF,
        KAFKA_PEER_WINDOW_COLLAPSED,
        KAFKA_TRANSMIT_BOUND,
        KAFKA_SOCKET_BUFFER_BELOW_BDP,
        KAFKA_RECONNECT_BACKOFF_NO_JITTER,
        KAFKA_CONNECTION_RECYCLED,
        KAFKA_BROKER_LINK_STALLED);
  }
}
