package io.faultline.kafka.connection;

import io.faultline.core.metrics.MeterDoc;
import io.faultline.kafka.ClientTags;
import io.faultline.kafka.KafkaMeters;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * The {@code faultline.kafka.connection.*} gauges of one {@link BrokerConnection}, reading its
 * latest sample ({@code NaN} until there is one, or when the kernel does not report a field).
 * {@link #close()} removes them.
 */
public final class ConnectionGauges implements AutoCloseable {

  private final MeterRegistry registry;
  private final List<Gauge> gauges = new ArrayList<>();

  /** Registers the gauges of {@code connection} in {@code registry}. */
  public ConnectionGauges(MeterRegistry registry, BrokerConnection connection) {
    this.registry = registry;
    Tags tags =
        KafkaMeters.CONNECTION_RTT.tags(
            ClientTags.clientId(connection.clientId()), ClientTags.nodeId(connection.nodeId()));
    add(
        connection,
        tags,
        KafkaMeters.CONNECTION_WINDOW_SCALING,
        f -> f.windowScaling() ? 1.0 : 0.0);
    add(connection, tags, KafkaMeters.CONNECTION_RTT, f -> f.rttMicros() / 1e6);
    add(connection, tags, KafkaMeters.CONNECTION_SND_WND, f -> value(f.info().sndWnd()));
    add(connection, tags, KafkaMeters.CONNECTION_RCV_WND, f -> value(f.info().rcvWnd()));
    add(connection, tags, KafkaMeters.CONNECTION_CWND, f -> (double) f.cwndBytes());
    add(
        connection,
        tags,
        KafkaMeters.CONNECTION_RETRANSMITS,
        f -> (double) f.info().totalRetrans());
    add(
        connection,
        tags,
        KafkaMeters.CONNECTION_DELIVERY_RATE,
        f -> value(f.info().deliveryRate()));
    add(connection, tags, KafkaMeters.CONNECTION_CEILING, f -> value(f.ceilingBytesPerSecond()));
    add(connection, tags, KafkaMeters.CONNECTION_RWND_LIMITED, f -> value(f.rwndLimitedShare()));
    add(
        connection,
        tags,
        KafkaMeters.CONNECTION_SNDBUF_LIMITED,
        f -> value(f.sndbufLimitedShare()));
  }

  private void add(
      BrokerConnection connection, Tags tags, MeterDoc doc, Function<TcpFacts, Double> value) {
    gauges.add(
        doc.gauge(connection, c -> c.latest().map(value).orElse(Double.NaN))
            .tags(tags)
            .strongReference(true)
            .register(registry));
  }

  private static double value(OptionalLong v) {
    return v.isPresent() ? v.getAsLong() : Double.NaN;
  }

  private static double value(OptionalDouble v) {
    return v.isPresent() ? v.getAsDouble() : Double.NaN;
  }

  @Override
  public void close() {
    for (Gauge g : gauges) {
      registry.remove(g);
    }
    gauges.clear();
  }
}
