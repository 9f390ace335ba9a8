package io.faultline.kafka.phase;

import io.faultline.core.metrics.MeterDoc;
import io.faultline.kafka.KafkaMeterTags;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The {@code faultline.kafka.request.phase} and {@code .gap} timers of one registry, each summing
 * the {@link PhaseHistogram}s of every client that shares its tags ({@link KafkaMeterTags}). The
 * histograms stay per client and connection (one writer each, no contention on the hot path) and
 * are added up at scrape time; a client that closes leaves its counts behind, so the timers stay
 * monotonic. One timer per tag set, however many clients: 1,000 producers talking to one broker
 * cost the meters of one. Thread-safe.
 */
public final class PhaseMeters {

  private record Key(String name, Tags tags) {}

  private final MeterRegistry registry;
  private final KafkaMeterTags tagging;
  private final Map<Key, Timer> timers = new ConcurrentHashMap<>();

  /**
   * @param registry where the timers go
   * @param tagging which tags a series carries
   */
  public PhaseMeters(MeterRegistry registry, KafkaMeterTags tagging) {
    this.registry = registry;
    this.tagging = tagging == null ? KafkaMeterTags.DEFAULT : tagging;
  }

  /** The tagging in use. */
  public KafkaMeterTags tagging() {
    return tagging;
  }

  /**
   * Adds {@code histogram} to the timer {@code doc} with {@code tags}, registering it if new.
   *
   * @return the timer, to {@link Timer#retire} the histogram from when its connection goes
   */
  public Timer attach(MeterDoc doc, Tags tags, PhaseHistogram histogram) {
    Timer timer = timers.computeIfAbsent(new Key(doc.name(), tags), k -> register(doc, tags));
    timer.add(histogram);
    return timer;
  }

  /** Timers registered so far (one per tag set). */
  public int timerCount() {
    return timers.size();
  }

  private Timer register(MeterDoc doc, Tags tags) {
    Timer summed = new Timer();
    FunctionTimer.builder(doc.name(), summed, Timer::count, Timer::sumNanos, TimeUnit.NANOSECONDS)
        .description(doc.description())
        .tags(tags)
        .register(registry);
    return summed;
  }

  /**
   * The histograms behind one timer and the counts of those that left. Members change rarely (a
   * client's first request of an API, a client closing), so they are a copy-on-write array.
   */
  public static final class Timer {
    private static final PhaseHistogram[] NONE = new PhaseHistogram[0];

    private volatile PhaseHistogram[] members = NONE;
    private long retiredCount;
    private long retiredSum;

    synchronized void add(PhaseHistogram h) {
      PhaseHistogram[] m = members;
      PhaseHistogram[] next = Arrays.copyOf(m, m.length + 1);
      next[m.length] = h;
      members = next;
    }

    Timer() {}

    /** Takes {@code h} out, keeping what it counted in the totals. */
    public synchronized void retire(PhaseHistogram h) {
      PhaseHistogram[] m = members;
      for (int i = 0; i < m.length; i++) {
        if (m[i] == h) {
          PhaseHistogram[] next = new PhaseHistogram[m.length - 1];
          System.arraycopy(m, 0, next, 0, i);
          System.arraycopy(m, i + 1, next, i, m.length - i - 1);
          // Counted before it leaves, under the lock the readers take: never a dip.
          retiredCount += h.count();
          retiredSum += h.sumNanos();
          members = next;
          return;
        }
      }
    }

    synchronized long count() {
      long c = retiredCount;
      for (PhaseHistogram h : members) {
        c += h.count();
      }
      return c;
    }

    synchronized double sumNanos() {
      long s = retiredSum;
      for (PhaseHistogram h : members) {
        s += h.sumNanos();
      }
      return s;
    }
  }
}
