package io.faultline.core.host;

import io.faultline.core.metrics.CommonTags;
import io.faultline.core.metrics.MeterDoc;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kernel's listen-queue and SYN-cookie counters and the TIME_WAIT count as meters named {@code
 * faultline.host.tcp.*}, so a reconnect storm (the LINE Kafka incident) or port exhaustion (the
 * Elastic Beanstalk port exhaustion) shows on a dashboard as it happens. Values are of the network
 * namespace read (a container's own). Meters whose source cannot be read at bind time are not
 * registered; {@link #close()} removes the ones that were.
 */
public final class HostTcpMetrics implements MeterBinder, AutoCloseable {

  private static final Pattern TCP_LINE =
      Pattern.compile("TCP:\\s+inuse\\s+(\\d+)\\s+orphan\\s+(\\d+)\\s+tw\\s+(\\d+)");

  /** Meter → TcpExt counter it reads. */
  private static final Map<MeterDoc, String> COUNTERS =
      Map.of(
          HostTcpMeters.SYNCOOKIES_SENT, "SyncookiesSent",
          HostTcpMeters.SYNCOOKIES_RECEIVED, "SyncookiesRecv",
          HostTcpMeters.SYNCOOKIES_FAILED, "SyncookiesFailed",
          HostTcpMeters.LISTEN_OVERFLOWS, "ListenOverflows",
          HostTcpMeters.LISTEN_DROPS, "ListenDrops",
          HostTcpMeters.REQQ_FULL_COOKIES, "TCPReqQFullDoCookies",
          HostTcpMeters.REQQ_FULL_DROPS, "TCPReqQFullDrop");

  private final ProcFs proc;
  private final Tags tags;
  private final List<Map.Entry<MeterRegistry, Meter>> registered = new ArrayList<>();

  /** Meters over {@code proc}'s counters. */
  public HostTcpMetrics(ProcFs proc) {
    this(proc, Tags.empty());
  }

  /**
   * Meters over {@code proc}'s counters, each also tagged with {@code tags} (e.g. {@code
   * namespace=broker}, to tell two readers apart on one registry).
   */
  public HostTcpMetrics(ProcFs proc, Iterable<Tag> tags) {
    this.proc = Objects.requireNonNull(proc, "proc");
    this.tags = CommonTags.of("tags", tags);
  }

  /** Meters over this host's (this namespace's) counters. */
  public HostTcpMetrics() {
    this(ProcFs.system());
  }

  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    NetCounters now = NetCounters.read(proc);
    COUNTERS.forEach(
        (doc, counter) -> {
          String key = "TcpExt." + counter;
          if (now.get(key).isPresent()) {
            keep(
                registry,
                doc.functionCounter(this, m -> m.counter(key)).tags(tags).register(registry));
          }
        });
    if (sockstat(3).isPresent()) {
      keep(registry, gauge(HostTcpMeters.TIME_WAIT, m -> m.tw()).register(registry));
      keep(registry, gauge(HostTcpMeters.INUSE, m -> m.sockstatValue(1)).register(registry));
    }
    if (proc.sysctlNumbers("net.ipv4.ip_local_port_range").isPresent()) {
      keep(registry, gauge(HostTcpMeters.EPHEMERAL_PORTS, m -> m.portRange()).register(registry));
    }
  }

  private void keep(MeterRegistry registry, Meter meter) {
    registered.add(Map.entry(registry, meter));
  }

  private Gauge.Builder<HostTcpMetrics> gauge(MeterDoc doc, ToDoubleFunction<HostTcpMetrics> f) {
    // Strong: callers bind and drop this binder, and a weakly held one made every meter NaN after
    // the first GC; the gauges keep it (and so the function counters' object) alive.
    return doc.gauge(this, f).strongReference(true).tags(tags);
  }

  private double counter(String key) {
    OptionalLong v = NetCounters.read(proc).get(key);
    return v.isPresent() ? v.getAsLong() : Double.NaN;
  }

  private double tw() {
    return sockstatValue(3);
  }

  private double sockstatValue(int group) {
    OptionalLong v = sockstat(group);
    return v.isPresent() ? v.getAsLong() : Double.NaN;
  }

  private OptionalLong sockstat(int group) {
    return proc.net("sockstat")
        .map(TCP_LINE::matcher)
        .filter(Matcher::find)
        .map(m -> OptionalLong.of(Long.parseLong(m.group(group))))
        .orElse(OptionalLong.empty());
  }

  private double portRange() {
    return proc.sysctlNumbers("net.ipv4.ip_local_port_range")
        .filter(r -> r.length >= 2)
        .map(r -> (double) (r[1] - r[0] + 1))
        .orElse(Double.NaN);
  }

  /** Removes every meter this binder registered, from every registry it was bound to. */
  @Override
  public synchronized void close() {
    for (Map.Entry<MeterRegistry, Meter> entry : registered) {
      entry.getKey().remove(entry.getValue());
    }
    registered.clear();
  }
}
