package io.faultline.core.host;

import io.faultline.core.finding.FindingCatalog;
import io.faultline.core.finding.FindingType;
import io.faultline.core.finding.Incident;
import io.faultline.core.finding.Severity;
import java.util.List;

/** The findings of the host doctor. Ids are stable: dashboards and docs refer to them. */
public final class HostFindingTypes implements FindingCatalog {

  /** Kernel without the SYN-cookie window-scale fix, with SYN cookies on. */
  public static final FindingType SYN_COOKIE_WSCALE_KERNEL_BUG =
      new FindingType(
          "SYN_COOKIE_WSCALE_KERNEL_BUG",
          Severity.WARNING,
          "Kernel has the SYN-cookie window-scale bug and SYN cookies are on",
          "The LINE Kafka incident: a broker restart made 18k clients reconnect at once; the SYN"
              + " queue overflowed into SYN cookies, and on Linux before 5.10 the window scale in a"
              + " cookie SYN-ACK differs from the one the socket then uses, so producers saw a"
              + " ~1.5 KB window and request latency of 16 s while broker metrics looked normal.",
          "Upgrade to a kernel with commit 909172a14974 (5.10, or stable 4.4.244, 4.9.244,"
              + " 4.14.207, 4.19.158, 5.4.78, 5.9.9); until then make the SYN queue large enough"
              + " that cookies are not needed (somaxconn, tcp_max_syn_backlog, the listener's"
              + " backlog) and stagger client reconnects.",
          Incident.LINE_KAFKA);

  /** SYN cookies on while TCP timestamps are off. */
  public static final FindingType SYN_COOKIES_WITHOUT_TIMESTAMPS =
      new FindingType(
          "SYN_COOKIES_WITHOUT_TIMESTAMPS",
          Severity.WARNING,
          "SYN cookies are on but TCP timestamps are off: cookie connections lose window scaling",
          "The Tencent CKafka incident: a SYN cookie can carry the window scale only inside the"
              + " timestamp option; without timestamps a cookie connection has no window scaling,"
              + " a 64 KiB window, and over a 200 ms ocean crossing moved 300 KB/s on a 225 Mbps"
              + " link.",
          "Set net.ipv4.tcp_timestamps=1, check that no NAT or middlebox strips the option, and"
              + " size the SYN queue so cookies are rare.",
          Incident.TENCENT_CKAFKA);

  /** Window scaling disabled outright. */
  public static final FindingType TCP_WINDOW_SCALING_DISABLED =
      new FindingType(
          "TCP_WINDOW_SCALING_DISABLED",
          Severity.CRITICAL,
          "TCP window scaling is disabled",
          "Without window scaling no TCP window exceeds 64 KiB, so every connection is capped at"
              + " 64 KiB per round trip: the throughput ceiling of the Tencent CKafka incident on"
              + " every connection.",
          "Set net.ipv4.tcp_window_scaling=1.",
          Incident.TENCENT_CKAFKA);

  /** Listen backlog limits below the expected connection burst. */
  public static final FindingType LISTEN_BACKLOG_SMALL =
      new FindingType(
          "LISTEN_BACKLOG_SMALL",
          Severity.WARNING,
          "Listen backlog limits are smaller than the expected connection burst",
          "The LINE Kafka incident: after a broker restart every client reconnected at once; the"
              + " SYN and accept queues overflowed and SYN cookies took over."
              + " The agent reports it at INFO in a process that accepts no connections of its"
              + " own (a Kafka client, a Streams application): the servers on the host are the"
              + " ones it would hurt.",
          "Raise net.core.somaxconn and net.ipv4.tcp_max_syn_backlog to at least the expected"
              + " burst, raise the server's own backlog (Kafka socket.listen.backlog.size, default"
              + " 50), and stagger client reconnects.",
          Incident.LINE_KAFKA);

  /** Listen queue overflows or drops rising. */
  public static final FindingType LISTEN_QUEUE_OVERFLOWING =
      new FindingType(
          "LISTEN_QUEUE_OVERFLOWING",
          Severity.CRITICAL,
          "Listen queues are overflowing: connection attempts are being dropped",
          "The LINE Kafka incident: a reconnect storm overflowed the broker's listen queues;"
              + " clients retried SYNs for seconds while the broker's own metrics saw nothing.",
          "Raise the listener backlog and net.core.somaxconn, accept faster, and stagger client"
              + " reconnects.",
          Incident.LINE_KAFKA);

  /** One of this process's listeners has a full accept queue. */
  public static final FindingType LISTENER_QUEUE_FULL =
      new FindingType(
          "LISTENER_QUEUE_FULL",
          Severity.CRITICAL,
          "A listener of this process has a full accept queue: handshakes are being dropped",
          "The LINE Kafka incident from the broker's side: after a restart every client"
              + " reconnected at once, the broker's accept queue filled, the kernel dropped"
              + " handshakes and answered with SYN cookies, and the clients that got one lost"
              + " window scaling. The broker's own metrics saw none of it. Read from the listening"
              + " socket itself, so it names the port.",
          "Raise the listener's backlog (Kafka: socket.listen.backlog.size, default 50) and"
              + " net.core.somaxconn, which caps it; accept faster (more network threads); and"
              + " stagger client reconnects (Faultline's kafka.stagger on the clients).",
          Incident.LINE_KAFKA);

  /** Connections this process accepted that have no window scaling. */
  public static final FindingType CLIENTS_WITHOUT_WINDOW_SCALING =
      new FindingType(
          "CLIENTS_WITHOUT_WINDOW_SCALING",
          Severity.WARNING,
          "Client connections accepted by this process have no TCP window scaling",
          "The LINE Kafka incident from the broker's side: after a restart the reconnect storm"
              + " overflowed the SYN queue, the SYN cookies of a kernel before 5.10 (or of a path"
              + " without TCP timestamps) lost the window scale, and the producers behind those"
              + " connections could send no more than 64 KiB per round trip; the broker's own"
              + " metrics looked healthy. Read from each accepted socket's TCP_INFO, so it names"
              + " the clients.",
          "Have the named clients reconnect (restart them, or let Faultline's kafka.recycle on"
              + " the clients recycle crippled connections); then stop it recurring: a kernel"
              + " with the SYN-cookie fix, TCP timestamps on, and a SYN queue and accept queue"
              + " large enough that cookies are not needed (somaxconn, tcp_max_syn_backlog,"
              + " socket.listen.backlog.size), and staggered client reconnects.",
          Incident.LINE_KAFKA);

  /** SYN cookies being sent. */
  public static final FindingType SYN_COOKIES_SENT =
      new FindingType(
          "SYN_COOKIES_SENT",
          Severity.WARNING,
          "The kernel is answering SYNs with SYN cookies",
          "The LINE Kafka incident and the Tencent CKafka incident: connections set up through SYN"
              + " cookies lost or garbled window scaling and ran at a fraction of the link's"
              + " speed.",
          "Find the listener whose SYN queue overflows (ss -ltn: Recv-Q vs Send-Q), raise its"
              + " backlog and tcp_max_syn_backlog, and stagger client (re)connects.",
          List.of(Incident.LINE_KAFKA, Incident.TENCENT_CKAFKA));

  /** Ephemeral ports running out. */
  public static final FindingType EPHEMERAL_PORTS_LOW =
      new FindingType(
          "EPHEMERAL_PORTS_LOW",
          Severity.WARNING,
          "TIME_WAIT and open sockets hold a large share of the ephemeral port range",
          "The Elastic Beanstalk port exhaustion (Nginx to Tomcat): ~27,000 sockets in TIME_WAIT"
              + " exhausted the ports, and connect() failed with 'Cannot assign requested address'"
              + " (EADDRNOTAVAIL).",
          "Reuse connections (HTTP keep-alive, connection pools), set net.ipv4.tcp_tw_reuse=1 for"
              + " outbound connections (needs tcp_timestamps=1), and widen"
              + " net.ipv4.ip_local_port_range.",
          Incident.ELASTIC_BEANSTALK_PORTS);

  /** Socket buffer ceilings below the target bandwidth-delay product. */
  public static final FindingType SOCKET_BUFFER_CEILING_LOW =
      new FindingType(
          "SOCKET_BUFFER_CEILING_LOW",
          Severity.WARNING,
          "Socket buffer ceilings are below the target bandwidth-delay product",
          "The Tencent CKafka incident: 64 KiB buffers over a 200 ms path cap a connection at"
              + " window / RTT, far below the link; the kernel will not grow a buffer past these"
              + " ceilings.",
          "Raise net.core.rmem_max/wmem_max (explicit SO_RCVBUF/SO_SNDBUF, e.g. Kafka"
              + " socket.*.buffer.bytes) and the third value of net.ipv4.tcp_rmem/tcp_wmem"
              + " (autotuning) to at least the bandwidth-delay product.",
          Incident.TENCENT_CKAFKA);

  /** All receive processing on one core. */
  public static final FindingType RECEIVE_STEERING_SINGLE_CORE =
      new FindingType(
          "RECEIVE_STEERING_SINGLE_CORE",
          Severity.WARNING,
          "A NIC has one receive queue and RPS is off: all receive work lands on one CPU",
          "The Netmarble RPS case (Kubernetes): with one rx queue and RPS off, every NET_RX softirq"
              + " ran on one core; pods failed health checks and restarted at 40% CPU."
              + " The agent reports it at INFO in a process that accepts no connections of its"
              + " own (a Kafka client, a Streams application): the servers on the host are the"
              + " ones it would hurt.",
          "Spread receive work with RPS (write a CPU mask to /sys/class/net/DEV/queues/rx-*/"
              + "rps_cpus) or enable more NIC queues (ethtool -L).",
          Incident.NETMARBLE_RPS);

  /** NET_RX softirqs concentrated on one CPU. */
  public static final FindingType NET_RX_SOFTIRQ_ON_ONE_CPU =
      new FindingType(
          "NET_RX_SOFTIRQ_ON_ONE_CPU",
          Severity.WARNING,
          "One CPU is handling most NET_RX softirqs",
          "The Netmarble RPS case (Kubernetes): one core saturated by receive softirqs while the"
              + " host average showed 40% CPU; health checks timed out.",
          "Enable RPS/RFS or more NIC queues, and spread the NIC's IRQ affinity.",
          Incident.NETMARBLE_RPS);

  /** The congestion control in use. */
  public static final FindingType TCP_CONGESTION_CONTROL =
      new FindingType(
          "TCP_CONGESTION_CONTROL",
          Severity.INFO,
          "TCP congestion control in use",
          "Useful context for cross-region links such as the Tencent CKafka incident's: loss-based"
              + " algorithms (cubic, reno) slow down more on lossy long paths than bbr.",
          "Nothing to do; consider bbr for long, lossy paths.",
          Incident.TENCENT_CKAFKA);

  @Override
  public List<FindingType> findingTypes() {
    return List.of(
        SYN_COOKIE_WSCALE_KERNEL_BUG,
        SYN_COOKIES_WITHOUT_TIMESTAMPS,
        TCP_WINDOW_SCALING_DISABLED,
        LISTEN_BACKLOG_SMALL,
        LISTEN_QUEUE_OVERFLOWING,
        LISTENER_QUEUE_FULL,
        CLIENTS_WITHOUT_WINDOW_SCALING,
        SYN_COOKIES_SENT,
        EPHEMERAL_PORTS_LOW,
        SOCKET_BUFFER_CEILING_LOW,
        RECEIVE_STEERING_SINGLE_CORE,
        NET_RX_SOFTIRQ_ON_ONE_CPU,
        TCP_CONGESTION_CONTROL);
  }
}
