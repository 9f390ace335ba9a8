package io.faultline.kafka;

import io.faultline.core.metrics.MeterCatalog;
import io.faultline.core.metrics.MeterDoc;
import java.util.List;

/** The meters kafka-guard registers. */
public final class KafkaMeters implements MeterCatalog {

  private static final List<String> CONNECTION_TAGS = List.of("client.type", "node.id");

  /** One phase of a request. */
  public static final MeterDoc REQUEST_PHASE =
      new MeterDoc(
          "faultline.kafka.request.phase",
          MeterDoc.Type.TIMER,
          "seconds",
          List.of("client.type", "node.id", "api", "phase"),
          "Time a request spent in one phase: queue, transmit, delivery, response, receive;"
              + " response_incl_delivery where the kernel could not tell when the broker had the"
              + " request. All clients of a type together; client.id is a tag too with"
              + " kafka.meters.client-id=true. The agent's endpoint writes it as a histogram"
              + " with the kafka.phases.buckets bounds.",
          KafkaConfigKeys.PHASES_FEATURE);

  /** Client latency minus what the broker could see. */
  public static final MeterDoc REQUEST_GAP =
      new MeterDoc(
          "faultline.kafka.request.gap",
          MeterDoc.Type.TIMER,
          "seconds",
          List.of("client.type", "node.id", "api"),
          "Client-observed request latency minus the broker-side estimate (the response phase):"
              + " the time broker metrics cannot see. Tagged like the phase timer, and a"
              + " histogram on the agent's endpoint like it.",
          KafkaConfigKeys.PHASES_FEATURE);

  /** Whether window scaling was negotiated. */
  public static final MeterDoc CONNECTION_WINDOW_SCALING =
      connection(
          "faultline.kafka.connection.window_scaling",
          "boolean",
          "1 when every connection to the broker negotiated TCP window scaling, 0 when one did not.");

  /** Smoothed RTT. */
  public static final MeterDoc CONNECTION_RTT =
      connection(
          "faultline.kafka.connection.rtt",
          "seconds",
          "Smoothed round-trip time to the broker: the longest of the connections.");

  /** The peer's window. */
  public static final MeterDoc CONNECTION_SND_WND =
      connection(
          "faultline.kafka.connection.snd_wnd",
          "bytes",
          "The window the broker advertises (scaled), bytes: the smallest of the connections;"
              + " kernel 5.4+.");

  /** This side's window. */
  public static final MeterDoc CONNECTION_RCV_WND =
      connection(
          "faultline.kafka.connection.rcv_wnd",
          "bytes",
          "The window this client advertises to the broker, bytes: the smallest of the"
              + " connections; kernel 6.2+.");

  /** Congestion window. */
  public static final MeterDoc CONNECTION_CWND =
      connection(
          "faultline.kafka.connection.cwnd",
          "bytes",
          "Congestion window (segments × MSS), bytes: the smallest of the connections.");

  /** Retransmitted segments. */
  public static final MeterDoc CONNECTION_RETRANSMITS =
      connection(
          "faultline.kafka.connection.retransmits",
          "segments",
          "Segments retransmitted, added up over the open connections' lives.");

  /** Delivery rate. */
  public static final MeterDoc CONNECTION_DELIVERY_RATE =
      connection(
          "faultline.kafka.connection.delivery_rate",
          "bytes",
          "The kernel's most recent delivery-rate estimate, bytes per second: the lowest of the"
              + " connections.");

  /** The window / RTT ceiling. */
  public static final MeterDoc CONNECTION_CEILING =
      connection(
          "faultline.kafka.connection.throughput_ceiling",
          "bytes",
          "The most a connection can carry per second whatever the link, peer window / RTT: the"
              + " lowest of the connections.");

  /** Share of busy time limited by the peer's receive window. */
  public static final MeterDoc CONNECTION_RWND_LIMITED =
      connection(
          "faultline.kafka.connection.rwnd_limited",
          "ratio",
          "Share of the time with data in flight that was limited by the broker's receive window:"
              + " the highest of the connections.");

  /** Share of busy time limited by this side's send buffer. */
  public static final MeterDoc CONNECTION_SNDBUF_LIMITED =
      connection(
          "faultline.kafka.connection.sndbuf_limited",
          "ratio",
          "Share of the time with data in flight that was limited by this client's send buffer:"
              + " the highest of the connections.");

  /** Reconnect delay the gate imposed. */
  public static final MeterDoc STAGGER_DELAY =
      new MeterDoc(
          "faultline.kafka.stagger.delay",
          MeterDoc.Type.TIMER,
          "seconds",
          List.of("client.type"),
          "How long the reconnect gate held a connection to a lost broker back.",
          KafkaConfigKeys.STAGGER_FEATURE);

  /** Connection initiations asked of the gate. */
  public static final MeterDoc CONNECT_ATTEMPTS =
      new MeterDoc(
          "faultline.kafka.connect.attempts",
          MeterDoc.Type.COUNTER,
          "attempts",
          List.of("node.id", "outcome"),
          "Connection initiations the reconnect gate decided: immediate, first (the starvation"
              + " guard), after_delay, deferred, throttled (process-wide rate limit).",
          KafkaConfigKeys.STAGGER_FEATURE);

  /** Recycling decisions that concerned a crippled connection. */
  public static final MeterDoc CONNECTION_RECYCLES =
      new MeterDoc(
          "faultline.kafka.connection.recycles",
          MeterDoc.Type.COUNTER,
          "decisions",
          List.of("client.type", "node.id", "outcome"),
          "Samples that found a connection crippled long enough to recycle, by outcome: recycled"
              + " (closed through the client's disconnect path), would_recycle (kafka.recycle is off: the"
              + " findings are the warning), rate_limited (kafka.recycle.min-interval or another"
              + " recycle in progress), failed. Tagged like the connection gauges (client.id too"
              + " with kafka.meters.client-id=true).",
          KafkaConfigKeys.RECYCLE_FEATURE);

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public KafkaMeters() {}

  private static MeterDoc connection(String name, String unit, String description) {
    return new MeterDoc(
        name, MeterDoc.Type.GAUGE, unit, CONNECTION_TAGS, description, KafkaConfigKeys.TCP_FEATURE);
  }

  @Override
  public List<MeterDoc> meters() {
    return List.of(
        REQUEST_PHASE,
        REQUEST_GAP,
        CONNECTION_WINDOW_SCALING,
        CONNECTION_RTT,
        CONNECTION_SND_WND,
        CONNECTION_RCV_WND,
        CONNECTION_CWND,
        CONNECTION_RETRANSMITS,
        CONNECTION_DELIVERY_RATE,
        CONNECTION_CEILING,
        CONNECTION_RWND_LIMITED,
        CONNECTION_SNDBUF_LIMITED,
        STAGGER_DELAY,
        CONNECT_ATTEMPTS,
        CONNECTION_RECYCLES);
  }
}
