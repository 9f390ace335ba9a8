package io.faultline.jooq.pool;

/**
 * One reading of a connection pool's state.
 *
 * @param poolName the pool's name (HikariCP's {@code poolName})
 * @param total open connections, in use or idle
 * @param active connections in use
 * @param idle connections waiting in the pool
 * @param awaiting application threads waiting for a connection
 * @param minimumIdle the pool's {@code minimumIdle}: connections it keeps open anyway
 * @param maximum the pool's {@code maximumPoolSize}
 */
public record PoolReading(
    String poolName, int total, int active, int idle, int awaiting, int minimumIdle, int maximum) {

  /** Connections opened beyond what the pool keeps open anyway ({@code minimumIdle}). */
  public int aboveMinimum() {
    return Math.max(0, total - minimumIdle);
  }

  @Override
  public String toString() {
    return String.format(
        java.util.Locale.ROOT,
        "%s total=%d/%d (active=%d idle=%d awaiting=%d minIdle=%d)",
        poolName,
        total,
        maximum,
        active,
        idle,
        awaiting,
        minimumIdle);
  }
}
