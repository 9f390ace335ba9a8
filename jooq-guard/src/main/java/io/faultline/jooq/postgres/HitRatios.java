package io.faultline.jooq.postgres;

import java.util.HashMap;
import java.util.Map;

/**
 * Hit ratios per SLRU cache from the difference between two samples of {@code pg_stat_slru}'s
 * cumulative {@code blks_hit} and {@code blks_read}. A counter that went backwards (statistics
 * reset) restarts from the new sample.
 */
final class HitRatios {

  /**
   * The change of one cache over one interval.
   *
   * @param hits blocks found in the cache
   * @param reads blocks read into the cache
   */
  public record Delta(long hits, long reads) {
    /** Hits over accesses; NaN when there were none. */
    public double ratio() {
      long accesses = hits + reads;
      return accesses == 0 ? Double.NaN : (double) hits / accesses;
    }

    /** Hits plus reads. */
    public long accesses() {
      return hits + reads;
    }
  }

  private final Map<String, long[]> previous = new HashMap<>();

  /**
   * Takes the cumulative {@code hit} and {@code read} of {@code slru} (canonical name) and returns
   * the change since the last call for it, or null on the first call.
   */
  public Delta next(String slru, long hit, long read) {
    long[] before = previous.put(slru, new long[] {hit, read});
    if (before == null || hit < before[0] || read < before[1]) {
      return null;
    }
    return new Delta(hit - before[0], read - before[1]);
  }
}
