package io.faultline.core.host;

import io.faultline.core.metrics.MeterCatalog;
import io.faultline.core.metrics.MeterDoc;
import java.util.List;

/** The meters of {@link HostTcpMetrics}: the kernel's TCP counters of the namespace read. */
public final class HostTcpMeters implements MeterCatalog {

  private static final String FEATURE = "host.tcp";

  /** SYNs answered with a SYN cookie. */
  public static final MeterDoc SYNCOOKIES_SENT =
      counter("syncookies.sent", "SYNs answered with a SYN cookie (SYN queue full)");

  /** ACKs carrying a valid SYN cookie. */
  public static final MeterDoc SYNCOOKIES_RECEIVED =
      counter("syncookies.received", "ACKs that carried a valid SYN cookie");

  /** ACKs with an invalid SYN cookie. */
  public static final MeterDoc SYNCOOKIES_FAILED =
      counter("syncookies.failed", "ACKs with an invalid SYN cookie");

  /** Connections dropped on a full accept queue. */
  public static final MeterDoc LISTEN_OVERFLOWS =
      counter("listen.overflows", "Connections dropped because an accept queue was full");

  /** Connection attempts dropped by a listener. */
  public static final MeterDoc LISTEN_DROPS =
      counter("listen.drops", "Connection attempts dropped by a listener for any reason");

  /** SYN cookies sent because the SYN queue was full. */
  public static final MeterDoc REQQ_FULL_COOKIES =
      counter("reqq.full.cookies", "SYN cookies sent because the SYN queue was full");

  /** SYNs dropped because the SYN queue was full. */
  public static final MeterDoc REQQ_FULL_DROPS =
      counter("reqq.full.drops", "SYNs dropped because the SYN queue was full");

  /** Sockets in TIME_WAIT. */
  public static final MeterDoc TIME_WAIT =
      gauge("time.wait", "sockets", "TCP sockets in TIME_WAIT (each holds an ephemeral port).");

  /** Sockets in use. */
  public static final MeterDoc INUSE = gauge("inuse", "sockets", "TCP sockets in use.");

  /** Size of the ephemeral port range. */
  public static final MeterDoc EPHEMERAL_PORTS =
      gauge("ephemeral.ports", "ports", "Size of net.ipv4.ip_local_port_range.");

  /** A listener's accept queue. */
  public static final MeterDoc LISTENER_QUEUE =
      new MeterDoc(
          "faultline.host.tcp.listener.queue",
          MeterDoc.Type.GAUGE,
          "connections",
          List.of("port"),
          "Connections waiting in the accept queue of a listener of this process, from the"
              + " listening socket's TCP_INFO (tcpi_unacked); at the limit the kernel drops"
              + " handshakes.",
          FEATURE);

  /** A listener's accept queue limit. */
  public static final MeterDoc LISTENER_QUEUE_LIMIT =
      new MeterDoc(
          "faultline.host.tcp.listener.queue.limit",
          MeterDoc.Type.GAUGE,
          "connections",
          List.of("port"),
          "The accept queue limit of a listener of this process: its backlog capped by"
              + " net.core.somaxconn (tcpi_sacked).",
          FEATURE);

  /** Connections accepted on a listener of this process. */
  public static final MeterDoc ACCEPTED =
      new MeterDoc(
          "faultline.host.tcp.accepted",
          MeterDoc.Type.GAUGE,
          "connections",
          List.of("port"),
          "Established connections this process accepted on a listener, at the last sweep.",
          FEATURE);

  /** Accepted connections without window scaling. */
  public static final MeterDoc ACCEPTED_WITHOUT_WSCALE =
      new MeterDoc(
          "faultline.host.tcp.accepted.without_wscale",
          MeterDoc.Type.GAUGE,
          "connections",
          List.of("port"),
          "Accepted connections that negotiated no TCP window scaling, at the last sweep: each"
              + " carries at most 64 KiB per round trip.",
          FEATURE);

  /** The median RTT of the accepted connections. */
  public static final MeterDoc ACCEPTED_RTT_MEDIAN =
      portGauge(
          "accepted.rtt.median",
          "seconds",
          "The median smoothed RTT (tcpi_rtt) of the connections accepted on a listener, at the"
              + " last sweep; NaN without connections.");

  /** The longest RTT of the accepted connections. */
  public static final MeterDoc ACCEPTED_RTT_MAX =
      portGauge(
          "accepted.rtt.max",
          "seconds",
          "The longest smoothed RTT (tcpi_rtt) among the connections accepted on a listener, at the"
              + " last sweep; NaN without connections.");

  /** The smallest window the clients advertise. */
  public static final MeterDoc ACCEPTED_CLIENT_WINDOW_MIN =
      portGauge(
          "accepted.client_window.min",
          "bytes",
          "The smallest receive window the clients of a listener advertise (tcpi_snd_wnd, kernel"
              + " 5.4+), at the last sweep: the most this process may send to that client"
              + " unacknowledged. NaN without connections or on an older kernel.");

  /** The median window the clients advertise. */
  public static final MeterDoc ACCEPTED_CLIENT_WINDOW_MEDIAN =
      portGauge(
          "accepted.client_window.median",
          "bytes",
          "The median receive window the clients of a listener advertise (tcpi_snd_wnd, kernel"
              + " 5.4+), at the last sweep.");

  /** Segments retransmitted to the clients of a listener. */
  public static final MeterDoc ACCEPTED_RETRANSMITS =
      new MeterDoc(
          "faultline.host.tcp.accepted.retransmits",
          MeterDoc.Type.COUNTER,
          "segments",
          List.of("port"),
          "Segments this process retransmitted on the connections it accepted on a listener"
              + " (growth of tcpi_total_retrans between sweeps; a connection's last interval"
              + " before it closes is not seen).",
          FEATURE);

  /** Time the sends to a listener's clients waited for their receive window. */
  public static final MeterDoc ACCEPTED_RWND_LIMITED =
      new MeterDoc(
          "faultline.host.tcp.accepted.rwnd_limited",
          MeterDoc.Type.COUNTER,
          "seconds",
          List.of("port"),
          "Time this process's sends on the connections it accepted on a listener were limited by"
              + " the client's receive window (growth of tcpi_rwnd_limited between sweeps, kernel"
              + " 4.10+): clients that read too slowly or offer too small a buffer.",
          FEATURE);

  /** The clients with the most retransmits. */
  public static final MeterDoc ACCEPTED_CLIENT_RETRANSMITS =
      clientGauge(
          "accepted.client.retransmits",
          "segments",
          "Segments retransmitted over the open connections of a client of a listener"
              + " (tcpi_total_retrans summed), for the five clients with the most; client=\"other\""
              + " sums the rest. A client is its client id where the process knows it (a Kafka"
              + " broker), else its address.");

  /** The clients whose window limited the sends the longest. */
  public static final MeterDoc ACCEPTED_CLIENT_RWND_LIMITED =
      clientGauge(
          "accepted.client.rwnd_limited",
          "seconds",
          "Time the sends over the open connections of a client of a listener were limited by the"
              + " client's receive window (tcpi_rwnd_limited summed), for the five clients with the"
              + " most; client=\"other\" sums the rest.");

  /** The clients with the longest RTT. */
  public static final MeterDoc ACCEPTED_CLIENT_RTT =
      clientGauge(
          "accepted.client.rtt",
          "seconds",
          "The longest smoothed RTT over the open connections of a client of a listener, for the"
              + " five clients with the longest; client=\"other\" is the longest of the rest.");

  /** Sweeps of the accepted connections that could not use a sock_diag dump. */
  public static final MeterDoc ACCEPTED_FALLBACK_SWEEPS =
      new MeterDoc(
          "faultline.host.tcp.accepted.fallback.sweeps",
          MeterDoc.Type.COUNTER,
          "sweeps",
          List.of(),
          "Sweeps of the accepted connections that read one TCP_INFO per connection because a"
              + " netlink sock_diag dump was refused or is not available (seccomp, no JNA).",
          FEATURE);

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public HostTcpMeters() {}

  private static MeterDoc counter(String suffix, String description) {
    return new MeterDoc(
        "faultline.host.tcp." + suffix,
        MeterDoc.Type.COUNTER,
        "events",
        List.of(),
        description + ", from the TcpExt counters of /proc/net/netstat.",
        FEATURE);
  }

  private static MeterDoc portGauge(String suffix, String unit, String description) {
    return new MeterDoc(
        "faultline.host.tcp." + suffix,
        MeterDoc.Type.GAUGE,
        unit,
        List.of("port"),
        description,
        FEATURE);
  }

  private static MeterDoc clientGauge(String suffix, String unit, String description) {
    return new MeterDoc(
        "faultline.host.tcp." + suffix,
        MeterDoc.Type.GAUGE,
        unit,
        List.of("port", "client"),
        description,
        FEATURE);
  }

  private static MeterDoc gauge(String suffix, String unit, String description) {
    return new MeterDoc(
        "faultline.host.tcp." + suffix, MeterDoc.Type.GAUGE, unit, List.of(), description, FEATURE);
  }

  @Override
  public List<MeterDoc> meters() {
    return List.of(
        SYNCOOKIES_SENT,
        SYNCOOKIES_RECEIVED,
        SYNCOOKIES_FAILED,
        LISTEN_OVERFLOWS,
        LISTEN_DROPS,
        REQQ_FULL_COOKIES,
        REQQ_FULL_DROPS,
        TIME_WAIT,
        INUSE,
        LISTENER_QUEUE,
        LISTENER_QUEUE_LIMIT,
        ACCEPTED,
        ACCEPTED_WITHOUT_WSCALE,
        ACCEPTED_RTT_MEDIAN,
        ACCEPTED_RTT_MAX,
        ACCEPTED_CLIENT_WINDOW_MIN,
        ACCEPTED_CLIENT_WINDOW_MEDIAN,
        ACCEPTED_RETRANSMITS,
        ACCEPTED_RWND_LIMITED,
        ACCEPTED_CLIENT_RETRANSMITS,
        ACCEPTED_CLIENT_RWND_LIMITED,
        ACCEPTED_CLIENT_RTT,
        ACCEPTED_FALLBACK_SWEEPS,
        EPHEMERAL_PORTS);
  }
}
