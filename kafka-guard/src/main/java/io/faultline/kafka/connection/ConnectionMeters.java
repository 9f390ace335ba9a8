package io.faultline.kafka.connection;

import io.faultline.core.metrics.LateRegistry;
import io.faultline.core.metrics.MeterDoc;
import io.faultline.kafka.KafkaMeterTags;
import io.faultline.kafka.KafkaMeters;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.ToDoubleFunction;

/**
 * The {@code faultline.kafka.connection.*} gauges of one registry: one set per tag set ({@link
 * KafkaMeterTags}: client type and node by default), each reading the latest TCP facts of every
 * open connection with those tags and showing the worst — the smallest window, the longest RTT, no
 * window scaling if any connection lacks it — because one crippled connection among healthy ones is
 * what the LINE Kafka incident was. Retransmits are added up. {@code NaN} until a connection has a
 * sample, or when the kernel does not report a field. A set's gauges are removed when its last
 * connection goes. Thread-safe.
 */
final class ConnectionMeters {

  /** How a gauge combines the values of several connections. */
  private enum Combine {
    MIN,
    MAX,
    SUM
  }

  private final LateRegistry registry;
  private final KafkaMeterTags tagging;
  private final Map<Tags, Group> groups = new HashMap<>();

  /**
   * @param registry where the gauges go, once it exists
   * @param tagging which tags a set carries
   */
  public ConnectionMeters(LateRegistry registry, KafkaMeterTags tagging) {
    this.registry = registry;
    this.tagging = tagging == null ? KafkaMeterTags.DEFAULT : tagging;
  }

  /** Adds {@code connection} to the gauges of its tags (registering them for the first one). */
  public synchronized void add(BrokerConnection connection) {
    Tags tags = tags(connection);
    Group g = groups.get(tags);
    if (g == null) {
      g = new Group();
      groups.put(tags, g);
      Group added = g;
      registry.whenReady(r -> register(added, tags, r));
    }
    g.members = append(g.members, connection);
  }

  /** Takes {@code connection} out; the last one out removes its gauges. */
  public synchronized void remove(BrokerConnection connection) {
    Tags tags = tags(connection);
    Group g = groups.get(tags);
    if (g == null) {
      return;
    }
    g.members = without(g.members, connection);
    if (g.members.length == 0) {
      groups.remove(tags);
      if (g.registry != null) {
        g.gauges.forEach(g.registry::remove);
      }
    }
  }

  /** Gauge sets registered now. */
  public synchronized int groupCount() {
    return groups.size();
  }

  private Tags tags(BrokerConnection c) {
    return tagging.of(c.clientType(), c.clientId(), c.nodeId());
  }

  /** Registers {@code g}'s gauges in {@code r}, unless its last connection went first. */
  private synchronized void register(Group g, Tags tags, MeterRegistry r) {
    if (groups.get(tags) != g || g.registry != null) {
      return;
    }
    g.registry = r;
    add(
        g,
        tags,
        KafkaMeters.CONNECTION_WINDOW_SCALING,
        Combine.MIN,
        f -> f.windowScaling() ? 1 : 0);
    add(g, tags, KafkaMeters.CONNECTION_RTT, Combine.MAX, f -> f.rttMicros() / 1e6);
    add(g, tags, KafkaMeters.CONNECTION_SND_WND, Combine.MIN, f -> value(f.info().sndWnd()));
    add(g, tags, KafkaMeters.CONNECTION_RCV_WND, Combine.MIN, f -> value(f.info().rcvWnd()));
    add(g, tags, KafkaMeters.CONNECTION_CWND, Combine.MIN, f -> (double) f.cwndBytes());
    add(
        g,
        tags,
        KafkaMeters.CONNECTION_RETRANSMITS,
        Combine.SUM,
        f -> (double) f.info().totalRetrans());
    add(
        g,
        tags,
        KafkaMeters.CONNECTION_DELIVERY_RATE,
        Combine.MIN,
        f -> value(f.info().deliveryRate()));
    add(
        g,
        tags,
        KafkaMeters.CONNECTION_CEILING,
        Combine.MIN,
        f -> value(f.ceilingBytesPerSecond()));
    add(
        g,
        tags,
        KafkaMeters.CONNECTION_RWND_LIMITED,
        Combine.MAX,
        f -> value(f.rwndLimitedShare()));
    add(
        g,
        tags,
        KafkaMeters.CONNECTION_SNDBUF_LIMITED,
        Combine.MAX,
        f -> value(f.sndbufLimitedShare()));
  }

  private void add(
      Group g, Tags tags, MeterDoc doc, Combine combine, ToDoubleFunction<TcpFacts> value) {
    g.gauges.add(
        doc.gauge(g, group -> group.combine(combine, value))
            .tags(tags)
            .strongReference(true)
            .register(g.registry));
  }

  private static double value(OptionalLong v) {
    return v.isPresent() ? v.getAsLong() : Double.NaN;
  }

  private static double value(OptionalDouble v) {
    return v.isPresent() ? v.getAsDouble() : Double.NaN;
  }

  private static BrokerConnection[] append(BrokerConnection[] a, BrokerConnection c) {
    BrokerConnection[] next = Arrays.copyOf(a, a.length + 1);
    next[a.length] = c;
    return next;
  }

  private static BrokerConnection[] without(BrokerConnection[] a, BrokerConnection c) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] == c) {
        BrokerConnection[] next = new BrokerConnection[a.length - 1];
        System.arraycopy(a, 0, next, 0, i);
        System.arraycopy(a, i + 1, next, i, a.length - i - 1);
        return next;
      }
    }
    return a;
  }

  /** The connections behind one gauge set. */
  private static final class Group {
    volatile BrokerConnection[] members = new BrokerConnection[0];
    // Both guarded by the ConnectionMeters: where the gauges went, null until they did.
    MeterRegistry registry;
    final List<Gauge> gauges = new ArrayList<>();

    double combine(Combine combine, ToDoubleFunction<TcpFacts> value) {
      double result = Double.NaN;
      for (BrokerConnection c : members) {
        TcpFacts f = c.latest().orElse(null);
        if (f == null) {
          continue;
        }
        double v = value.applyAsDouble(f);
        if (Double.isNaN(v)) {
          continue;
        }
        if (Double.isNaN(result)) {
          result = v;
        } else if (combine == Combine.MIN) {
          result = Math.min(result, v);
        } else if (combine == Combine.MAX) {
          result = Math.max(result, v);
        } else {
          result += v;
        }
      }
      return result;
    }
  }
}
