package io.faultline.kafka.phase;

import io.faultline.core.metrics.LateRegistry;
import io.faultline.core.metrics.MeterDoc;
import io.faultline.kafka.KafkaMeterTags;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The {@code faultline.kafka.request.phase} and {@code .gap} timers of one registry, each summing
 * the {@link PhaseHistogram}s of every client that shares its tags ({@link KafkaMeterTags}). The
 * histograms stay per client and connection (one writer each, no contention on the hot path) and
 * are added up at scrape time; a client that closes leaves its counts behind, so the timers stay
 * monotonic. One timer per tag set, however many clients: 1,000 producers talking to one broker
 * cost the meters of one.
 *
 * <p>The Micrometer timers carry a count and a sum; {@link #series} gives the same timers with
 * their counts per bucket of {@link #buckets()}, for an exporter that writes real histograms (the
 * agent's Prometheus endpoint). Thread-safe.
 */
public final class PhaseMeters {

  private record Key(String name, Tags tags) {}

  private final LateRegistry registry;
  private final KafkaMeterTags tagging;
  private final PhaseBuckets buckets;
  private final Map<Key, Timer> timers = new ConcurrentHashMap<>();

  /**
   * Timers with the {@linkplain PhaseBuckets#DEFAULT default} bucket bounds.
   *
   * @param registry where the timers go
   * @param tagging which tags a series carries
   */
  public PhaseMeters(MeterRegistry registry, KafkaMeterTags tagging) {
    this(registry, tagging, PhaseBuckets.defaults());
  }

  /**
   * @param registry where the timers go
   * @param tagging which tags a series carries
   * @param buckets the bounds {@link #series} is read with
   */
  public PhaseMeters(MeterRegistry registry, KafkaMeterTags tagging, PhaseBuckets buckets) {
    this(LateRegistry.of(registry), tagging, buckets);
  }

  /**
   * Timers registered in a registry that may not exist yet: the histograms count from the start,
   * the timers that read them are registered once it does.
   *
   * @param registry where the timers go
   * @param tagging which tags a series carries
   * @param buckets the bounds {@link #series} is read with
   */
  public PhaseMeters(LateRegistry registry, KafkaMeterTags tagging, PhaseBuckets buckets) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.tagging = tagging == null ? KafkaMeterTags.DEFAULT : tagging;
    this.buckets = buckets == null ? PhaseBuckets.defaults() : buckets;
  }

  /** The bucket bounds of the histograms. */
  public PhaseBuckets buckets() {
    return buckets;
  }

  /**
   * One timer as an exporter of histograms sees it.
   *
   * @param doc the meter ({@code faultline.kafka.request.phase} or {@code .gap})
   * @param tags its tags
   * @param timer its histograms
   */
  public record Series(MeterDoc doc, Tags tags, Timer timer) {}

  /** Every timer registered so far, with its tags. */
  public List<Series> series() {
    List<Series> out = new ArrayList<>(timers.size());
    timers.forEach((k, t) -> out.add(new Series(t.doc, k.tags(), t)));
    return out;
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
    Timer summed = new Timer(doc);
    registry.whenReady(
        r ->
            FunctionTimer.builder(
                    doc.name(), summed, Timer::count, Timer::sumNanos, TimeUnit.NANOSECONDS)
                .description(doc.description())
                .tags(tags)
                .register(r));
    return summed;
  }

  /**
   * The histograms behind one timer and the counts of those that left. Members change rarely (a
   * client's first request of an API, a client closing), so they are a copy-on-write array.
   */
  public static final class Timer {
    private static final PhaseHistogram[] NONE = new PhaseHistogram[0];

    private final MeterDoc doc;
    private volatile PhaseHistogram[] members = NONE;
    private long retiredCount;
    private long retiredSum;
    // The retired histograms' counts per log-linear bucket; allocated on the first retirement.
    private long[] retiredCounts;

    synchronized void add(PhaseHistogram h) {
      PhaseHistogram[] m = members;
      PhaseHistogram[] next = Arrays.copyOf(m, m.length + 1);
      next[m.length] = h;
      members = next;
    }

    Timer(MeterDoc doc) {
      this.doc = doc;
    }

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
          if (retiredCounts == null) {
            retiredCounts = PhaseBuckets.newCounts();
          }
          h.addCountsTo(retiredCounts);
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

    /**
     * The histogram under {@code buckets}: read at scrape time from the per-connection histograms
     * and those that left, under the lock that retiring takes, so it never dips.
     */
    public Totals totals(PhaseBuckets buckets) {
      Counts c = counts();
      return new Totals(c.count(), c.sumNanos(), buckets.cumulative(c.perBucket()));
    }

    /** The counts per log-linear bucket, read as {@link #totals} reads them. */
    public synchronized Counts counts() {
      long[] counts = PhaseBuckets.newCounts();
      long sum = retiredSum;
      if (retiredCounts != null) {
        System.arraycopy(retiredCounts, 0, counts, 0, counts.length);
      }
      for (PhaseHistogram h : members) {
        // Not atomic with the counts: a value recorded meanwhile may be in one and not yet the
        // other, which the next scrape settles.
        sum += h.sumNanos();
        h.addCountsTo(counts);
      }
      long count = 0;
      for (long c : counts) {
        count += c;
      }
      return new Counts(count, sum, counts);
    }
  }

  /**
   * One timer's values at one moment, per log-linear bucket.
   *
   * @param count values recorded
   * @param sumNanos their sum
   * @param perBucket counts per log-linear bucket (for {@link PhaseBuckets#cumulative} or {@link
   *     ExponentialBuckets#of})
   */
  public record Counts(long count, long sumNanos, long[] perBucket) {
    /** The sum, seconds. */
    public double sumSeconds() {
      return sumNanos / 1e9;
    }
  }

  /**
   * One timer's histogram at one moment.
   *
   * @param count values recorded (the {@code +Inf} bucket)
   * @param sumNanos their sum
   * @param cumulative the count under each bound of the {@link PhaseBuckets}, ascending
   */
  public record Totals(long count, long sumNanos, long[] cumulative) {
    /** The sum, seconds. */
    public double sumSeconds() {
      return sumNanos / 1e9;
    }
  }
}
