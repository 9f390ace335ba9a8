package io.faultline.kafka.config;

import io.faultline.core.finding.Finding;
import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaFindingTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Checks a Kafka client's configuration against its link: socket buffers against the
 * bandwidth-delay product (the Tencent CKafka incident: 64 KiB buffers over a 200 ms RTT cap a
 * connection at ~320 KiB/s on a 225 Mbps link), the kernel ceilings that bound them, and the
 * no-jitter reconnect trap. Stateless; never throws on odd configuration values (they count as
 * unset).
 */
public final class ClientConfigAdvisor {

  /** {@code send.buffer.bytes}. */
  public static final String SEND_BUFFER = "send.buffer.bytes";

  /** {@code receive.buffer.bytes}. */
  public static final String RECEIVE_BUFFER = "receive.buffer.bytes";

  /** The broker's {@code socket.receive.buffer.bytes} default: it caps a producer's window. */
  public static final long BROKER_SOCKET_RECEIVE_BUFFER_DEFAULT = 100 * 1024;

  private ClientConfigAdvisor() {}

  /**
   * The advice for one client.
   *
   * @param bdpBytes the link's bandwidth-delay product
   * @param sendBufferBytes the client's effective {@code send.buffer.bytes} (its default when
   *     unset; -1 = autotuning)
   * @param receiveBufferBytes the effective {@code receive.buffer.bytes}
   * @param findings {@code KAFKA_SOCKET_BUFFER_BELOW_BDP} per buffer that is too small
   * @param notes further facts worth saying (kernel ceilings, the broker's buffer, a consumer's
   *     fetch size too small for the link)
   */
  public record Advice(
      long bdpBytes,
      long sendBufferBytes,
      long receiveBufferBytes,
      List<Finding> findings,
      List<String> notes) {}

  /** Kafka's default {@code send.buffer.bytes} for a client type: 128 KiB for all. */
  public static long defaultSendBuffer(ClientType type) {
    return 128 * 1024;
  }

  /** Kafka's default {@code receive.buffer.bytes}: producer 32 KiB, consumer and admin 64 KiB. */
  public static long defaultReceiveBuffer(ClientType type) {
    return type == ClientType.PRODUCER ? 32 * 1024 : 64 * 1024;
  }

  /**
   * Socket-buffer advice for {@code clientConfig} over {@code link}.
   *
   * @param type the client's kind (its defaults)
   * @param clientId for the findings' subject
   * @param clientConfig the client's configuration
   * @param link the RTT and the throughput the client should reach
   * @param kernel the kernel's ceilings ({@link KernelBufferLimits#read})
   */
  public static Advice socketBuffers(
      ClientType type,
      String clientId,
      Map<String, ?> clientConfig,
      LinkMeasurement link,
      KernelBufferLimits kernel) {
    long bdp = link.bdpBytes();
    long send = bytes(clientConfig, SEND_BUFFER, defaultSendBuffer(type));
    long receive = bytes(clientConfig, RECEIVE_BUFFER, defaultReceiveBuffer(type));
    List<Finding> findings = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    String subject = "client " + (clientId == null || clientId.isEmpty() ? "?" : clientId);
    check(SEND_BUFFER, send, link, kernel.wmemMax().orElse(-1), subject, findings);
    check(RECEIVE_BUFFER, receive, link, kernel.rmemMax().orElse(-1), subject, findings);
    kernel
        .tcpWmemMax()
        .ifPresent(
            max -> {
              if (max < bdp) {
                notes.add(
                    "net.ipv4.tcp_wmem allows at most "
                        + max
                        + " bytes, below the BDP of "
                        + bdp
                        + ": autotuned send buffers cannot fill the link; raise its third"
                        + " number to at least "
                        + bdp);
              }
            });
    kernel
        .tcpRmemMax()
        .ifPresent(
            max -> {
              if (max < bdp) {
                notes.add(
                    "net.ipv4.tcp_rmem allows at most "
                        + max
                        + " bytes, below the BDP of "
                        + bdp
                        + ": autotuned receive buffers cannot fill the link; raise its third"
                        + " number to at least "
                        + bdp);
              }
            });
    if (bdp > BROKER_SOCKET_RECEIVE_BUFFER_DEFAULT) {
      notes.add(
          String.format(
              Locale.ROOT,
              "The broker's socket.receive.buffer.bytes (default %d) caps the window it offers a"
                  + " producer: at this RTT that is %s at most; set it to -1 or at least %d on the"
                  + " brokers.",
              BROKER_SOCKET_RECEIVE_BUFFER_DEFAULT,
              rate(link.ceilingFor(BROKER_SOCKET_RECEIVE_BUFFER_DEFAULT)),
              bdp));
    }
    if (type == ClientType.CONSUMER) {
      // A fetch returns at most max.partition.fetch.bytes per partition per round trip.
      long perPartition = bytes(clientConfig, "max.partition.fetch.bytes", 1024 * 1024);
      double fetchCeiling = link.ceilingFor(perPartition);
      if (perPartition > 0 && fetchCeiling < link.bytesPerSecond()) {
        notes.add(
            String.format(
                Locale.ROOT,
                "max.partition.fetch.bytes=%d returns at most %s per partition at this RTT, below"
                    + " the target %s: raise it to at least %d (and fetch.max.bytes with it) or"
                    + " consume more partitions in parallel.",
                perPartition,
                rate(fetchCeiling),
                rate(link.bytesPerSecond()),
                bdp));
      }
    }
    return new Advice(bdp, send, receive, List.copyOf(findings), List.copyOf(notes));
  }

  private static void check(
      String key,
      long configured,
      LinkMeasurement link,
      long coreMax,
      String subject,
      List<Finding> findings) {
    if (configured < 0) {
      return; // -1: the kernel autotunes, bounded by tcp_wmem / tcp_rmem (see the notes)
    }
    // The kernel grants at most its core maximum to an explicit request (and doubles it for its
    // own bookkeeping, which does not carry data).
    long effective = coreMax > 0 ? Math.min(configured, coreMax) : configured;
    long bdp = link.bdpBytes();
    if (effective >= bdp) {
      return;
    }
    double ceiling = link.ceilingFor(effective);
    findings.add(
        Finding.of(KafkaFindingTypes.KAFKA_SOCKET_BUFFER_BELOW_BDP, subject + ": " + key)
            .evidence(key, configured)
            .evidence("effective_bytes", effective)
            .evidence("bdp_bytes", bdp)
            .evidence("rtt_ms", link.rttMicros() / 1000.0)
            .evidence("target_bytes_per_second", Math.round(link.bytesPerSecond()))
            .evidence("ceiling_bytes_per_second", Math.round(ceiling))
            .evidence("recommended", -1)
            .message(
                String.format(
                    Locale.ROOT,
                    "%s=%d is below the bandwidth-delay product of %d bytes (%s × %.1f ms): one"
                        + " connection cannot exceed %s. Set %s=-1 (kernel autotuning).",
                    key,
                    configured,
                    bdp,
                    rate(link.bytesPerSecond()),
                    link.rttMicros() / 1000.0,
                    rate(ceiling),
                    key))
            .build());
  }

  /**
   * The no-jitter reconnect trap: {@code reconnect.backoff.ms} set without {@code
   * reconnect.backoff.max.ms} (Kafka then makes the maximum equal the start, and the backoff a
   * constant without jitter), or a maximum not above the start.
   */
  public static List<Finding> reconnectBackoff(String clientId, Map<String, ?> clientConfig) {
    Object start = clientConfig.get("reconnect.backoff.ms");
    Object max = clientConfig.get("reconnect.backoff.max.ms");
    if (start == null) {
      return List.of();
    }
    long s = bytes(clientConfig, "reconnect.backoff.ms", 50);
    long m = max == null ? s : bytes(clientConfig, "reconnect.backoff.max.ms", 1000);
    if (m > s) {
      return List.of();
    }
    return List.of(
        Finding.of(
                KafkaFindingTypes.KAFKA_RECONNECT_BACKOFF_NO_JITTER,
                "client " + (clientId == null ? "?" : clientId))
            .evidence("reconnect.backoff.ms", s)
            .evidence("reconnect.backoff.max.ms", max == null ? "unset" : (Object) m)
            .message(
                "reconnect.backoff.ms="
                    + s
                    + (max == null
                        ? " without reconnect.backoff.max.ms"
                        : " with reconnect.backoff.max.ms=" + m)
                    + ": every reconnect waits exactly "
                    + s
                    + " ms, no jitter, in lockstep with every other client. Set"
                    + " reconnect.backoff.max.ms well above it.")
            .build());
  }

  private static long bytes(Map<String, ?> config, String key, long defaultValue) {
    Object v = config == null ? null : config.get(key);
    if (v instanceof Number n) {
      return n.longValue();
    }
    if (v instanceof String s && !s.isBlank()) {
      try {
        return Long.parseLong(s.trim());
      } catch (NumberFormatException e) {
        return defaultValue;
      }
    }
    return defaultValue;
  }

  static String rate(double bytesPerSecond) {
    if (bytesPerSecond >= 1_000_000) {
      return String.format(Locale.ROOT, "%.1f MB/s", bytesPerSecond / 1_000_000);
    }
    return String.format(Locale.ROOT, "%.0f KB/s", bytesPerSecond / 1000);
  }
}
