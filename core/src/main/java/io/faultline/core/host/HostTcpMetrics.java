package io.faultline.core.host;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
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

  /** Meter name suffix → TcpExt counter, with its description. */
  private static final Map<String, String[]> COUNTERS =
      Map.of(
          "syncookies.sent",
          new String[] {"SyncookiesSent", "SYNs answered with a SYN cookie (SYN queue full)"},
          "syncookies.received",
          new String[] {"SyncookiesRecv", "ACKs that carried a valid SYN cookie"},
          "syncookies.failed",
          new String[] {"SyncookiesFailed", "ACKs with an invalid SYN cookie"},
          "listen.overflows",
          new String[] {"ListenOverflows", "Connections dropped because an accept queue was full"},
          "listen.drops",
          new String[] {"ListenDrops", "Connection attempts dropped by a listener for any reason"},
          "reqq.full.cookies",
          new String[] {"TCPReqQFullDoCookies", "SYN cookies sent because the SYN queue was full"},
          "reqq.full.drops",
          new String[] {"TCPReqQFullDrop", "SYNs dropped because the SYN queue was full"});

  private final ProcFs proc;
  private final List<Meter> registered = new ArrayList<>();
  private MeterRegistry registry;

  /** Meters over {@code proc}'s counters. */
  public HostTcpMetrics(ProcFs proc) {
    this.proc = Objects.requireNonNull(proc, "proc");
  }

  /** Meters over this host's (this namespace's) counters. */
  public HostTcpMetrics() {
    this(ProcFs.system());
  }

  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    this.registry = registry;
    NetCounters now = NetCounters.read(proc);
    COUNTERS.forEach(
        (suffix, spec) -> {
          String key = "TcpExt." + spec[0];
          if (now.get(key).isPresent()) {
            registered.add(
                FunctionCounter.builder("faultline.host.tcp." + suffix, this, m -> m.counter(key))
                    .description(spec[1] + " (" + key + ")")
                    .baseUnit("events")
                    .register(registry));
          }
        });
    if (sockstat(3).isPresent()) {
      registered.add(
          gauge("time.wait", "TCP sockets in TIME_WAIT (hold an ephemeral port)", m -> m.tw())
              .register(registry));
      registered.add(
          gauge("inuse", "TCP sockets in use", m -> m.sockstatValue(1)).register(registry));
    }
    if (proc.sysctlNumbers("net.ipv4.ip_local_port_range").isPresent()) {
      registered.add(
          gauge("ephemeral.ports", "Size of net.ipv4.ip_local_port_range", m -> m.portRange())
              .baseUnit("ports")
              .register(registry));
    }
  }

  private Gauge.Builder<HostTcpMetrics> gauge(
      String suffix, String description, ToDoubleFunction<HostTcpMetrics> f) {
    // Strong: callers bind and drop this binder, and a weakly held one made every meter NaN after
    // the first GC; the gauges keep it (and so the function counters' object) alive.
    return Gauge.builder("faultline.host.tcp." + suffix, this, f)
        .strongReference(true)
        .description(description)
        .baseUnit("sockets");
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

  /** Removes every meter this binder registered. */
  @Override
  public synchronized void close() {
    if (registry != null) {
      for (Meter m : registered) {
        registry.remove(m);
      }
    }
    registered.clear();
  }
}
