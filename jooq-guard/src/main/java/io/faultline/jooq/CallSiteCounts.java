package io.faultline.jooq;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts per call site with a bound on how many distinct call sites are kept: beyond {@code
 * maxCallSites} new ones are counted together under {@link CallSite#OTHER}, so a flood of distinct
 * frames (generated classes, lambdas) cannot grow memory without end. Thread-safe.
 */
final class CallSiteCounts {

  private final int maxCallSites;
  private final ConcurrentHashMap<CallSite, LongAdder> counts = new ConcurrentHashMap<>();

  /** Keeps at most {@code maxCallSites} distinct call sites (at least 1) plus {@code other}. */
  public CallSiteCounts(int maxCallSites) {
    this.maxCallSites = Math.max(1, maxCallSites);
  }

  /**
   * Counts one occurrence at {@code site}; returns the call site it was counted under ({@code site}
   * or {@link CallSite#OTHER}) and whether this was the first count there.
   */
  public Counted increment(CallSite site) {
    return add(site, 1);
  }

  /**
   * Counts {@code count} occurrences at {@code site} (a sampled walk standing for several); returns
   * what {@link #increment} does.
   */
  public Counted add(CallSite site, long count) {
    LongAdder adder = counts.get(site);
    CallSite key = site;
    boolean first = false;
    if (adder == null) {
      if (counts.size() >= maxCallSites) {
        key = CallSite.OTHER;
      }
      LongAdder fresh = new LongAdder();
      LongAdder existing = counts.putIfAbsent(key, fresh);
      adder = existing == null ? fresh : existing;
      first = existing == null;
    }
    adder.add(count);
    return new Counted(key, first);
  }

  /** The counts so far, by call site; {@link CallSite#OTHER} holds what was beyond the bound. */
  public Map<CallSite, Long> snapshot() {
    Map<CallSite, Long> out = new TreeMap<>(java.util.Comparator.comparing(CallSite::toString));
    counts.forEach((site, adder) -> out.put(site, adder.sum()));
    return out;
  }

  /** How many distinct keys are held (at most the bound plus one). */
  public int size() {
    return counts.size();
  }

  /**
   * The result of one {@link #increment}.
   *
   * @param site the call site it was counted under
   * @param first whether it was the first count there
   */
  public record Counted(CallSite site, boolean first) {}
}
