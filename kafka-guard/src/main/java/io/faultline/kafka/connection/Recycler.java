package io.faultline.kafka.connection;

import io.faultline.core.config.FaultlineConfig;
import io.faultline.kafka.KafkaConfigKeys;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Decides when a broker connection is crippled enough to close so the client reconnects (what the
 * operators of the Tencent CKafka incident did by restarting the task), and asks an {@link Action}
 * to do it.
 *
 * <p>Crippled means: no window scaling, or a peer window of at most 64 KiB that holds data back
 * while the path could carry more ({@link PeerWindowWatch#starved}); <em>and</em> running into the
 * ceiling that causes (half or more of the busy time limited by the peer's window, or a delivery
 * rate the application did not limit at {@code kafka.recycle.demand-ratio} of window / RTT or
 * more); for {@code kafka.recycle.samples} consecutive samples. Then, at most once per connection
 * per {@code kafka.recycle.min-interval}, and never while another recycle in this process has not
 * reconnected yet (so a broker-side cause cannot make Faultline close every connection at once),
 * the action runs.
 *
 * <p>With {@code kafka.recycle=warn} (the default) decisions are still made and reported as {@link
 * Decision#WOULD_RECYCLE}, and nothing is closed; with {@code off} no recycler is built at all.
 * Thread-safe.
 */
public final class Recycler {

  /**
   * Closes one connection through the client's own disconnect path ({@code
   * NetworkClient.disconnect(nodeId)}), so in-flight requests fail over and are retried.
   * Implemented by the agent's advice; must not throw (a throw is caught and counted as not
   * recycled).
   */
  @FunctionalInterface
  public interface Action {
    /**
     * Close the connection.
     *
     * @param connectionKey the key the connection was sampled under
     * @param reason one sentence with the numbers, for the log and the finding
     * @return whether the connection was closed
     */
    boolean recycle(String connectionKey, String reason);
  }

  /** What one sample led to. */
  public enum Decision {
    /** Not crippled. */
    HEALTHY,
    /** Crippled, not yet for enough consecutive samples. */
    SUSPECT,
    /** Crippled long enough, but recycling is off: the finding is the warning. */
    WOULD_RECYCLE,
    /** Crippled long enough, but recycled too recently or another recycle is in progress. */
    RATE_LIMITED,
    /** The action closed the connection. */
    RECYCLED,
    /** The action refused or failed. */
    FAILED
  }

  /**
   * The settings.
   *
   * @param mode {@code kafka.recycle}
   * @param samples {@code kafka.recycle.samples}
   * @param minInterval {@code kafka.recycle.min-interval}
   * @param demandRatio {@code kafka.recycle.demand-ratio}
   */
  public record Policy(RecycleMode mode, int samples, Duration minInterval, double demandRatio) {

    /** Clamps soft mistakes: at least one sample, no negative interval or ratio. */
    public Policy {
      mode = mode == null ? RecycleMode.WARN : mode;
      samples = Math.max(1, samples);
      minInterval = minInterval == null || minInterval.isNegative() ? Duration.ZERO : minInterval;
      demandRatio = demandRatio > 0 ? demandRatio : 0.8;
    }

    /** The policy in {@code config}. */
    public static Policy from(FaultlineConfig config) {
      return new Policy(
          // A rejected kafka.recycle.* value turns the feature off: never close on a setting the
          // user did not mean.
          config.isFeatureEnabled(KafkaConfigKeys.RECYCLE_FEATURE)
              ? config.get(KafkaConfigKeys.RECYCLE)
              : RecycleMode.OFF,
          config.get(KafkaConfigKeys.RECYCLE_SAMPLES),
          config.get(KafkaConfigKeys.RECYCLE_MIN_INTERVAL),
          config.get(KafkaConfigKeys.RECYCLE_DEMAND_RATIO));
    }
  }

  /** A recycle whose connection has not come back within this long no longer blocks others. */
  static final long IN_PROGRESS_TIMEOUT_NANOS = Duration.ofSeconds(60).toNanos();

  private final Policy policy;
  private final Action action;
  private final Map<String, Integer> consecutive = new HashMap<>();
  private final Map<String, Long> lastRecycled = new HashMap<>();
  private String inProgress;
  private long inProgressSince;

  /** A recycler with {@code policy} that closes connections through {@code action}. */
  public Recycler(Policy policy, Action action) {
    this.policy = Objects.requireNonNull(policy, "policy");
    this.action = Objects.requireNonNull(action, "action");
  }

  /**
   * One TCP sample of one connection.
   *
   * @param connectionKey identifies the connection, e.g. {@code clientId/nodeId}
   * @param facts the sample
   * @param nowNanos {@link System#nanoTime()}
   */
  public synchronized Decision onSample(String connectionKey, TcpFacts facts, long nowNanos) {
    String reason = crippled(facts);
    if (reason == null) {
      consecutive.remove(connectionKey);
      return Decision.HEALTHY;
    }
    int n = consecutive.merge(connectionKey, 1, Integer::sum);
    if (n < policy.samples()) {
      return Decision.SUSPECT;
    }
    if (policy.mode() != RecycleMode.ON) {
      return Decision.WOULD_RECYCLE;
    }
    if (inProgress != null && nowNanos - inProgressSince >= IN_PROGRESS_TIMEOUT_NANOS) {
      inProgress = null;
    }
    Long last = lastRecycled.get(connectionKey);
    if (inProgress != null || (last != null && nowNanos - last < policy.minInterval().toNanos())) {
      return Decision.RATE_LIMITED;
    }
    boolean closed;
    try {
      closed = action.recycle(connectionKey, reason + " for " + n + " samples");
    } catch (RuntimeException e) {
      closed = false;
    }
    if (!closed) {
      return Decision.FAILED;
    }
    consecutive.remove(connectionKey);
    lastRecycled.put(connectionKey, nowNanos);
    inProgress = connectionKey;
    inProgressSince = nowNanos;
    return Decision.RECYCLED;
  }

  /** The recycled connection is back: other connections may be recycled again. */
  public synchronized void onReconnected(String connectionKey) {
    if (connectionKey.equals(inProgress)) {
      inProgress = null;
    }
  }

  /** Why {@code facts} show a crippled connection, or {@code null} when they do not. */
  String crippled(TcpFacts facts) {
    var info = facts.info();
    boolean noScaling = !facts.windowScaling();
    // In bytes, as for the finding: held back by a window a working scale would have opened past
    // 64 KiB (a 128 KiB loopback window is "2 segments" of 64 KB, and healthy). The consecutive
    // samples below make it persist.
    boolean collapsed =
        PeerWindowWatch.starved(facts)
            && info.sndWnd().getAsLong() <= PeerWindowWatch.UNSCALED_MAX_WINDOW;
    if (!noScaling && !collapsed) {
      return null;
    }
    double rwndLimited = facts.rwndLimitedShare().orElse(0);
    boolean windowBound = rwndLimited >= 0.5;
    boolean atCeiling = false;
    // A rate the application limited (a request smaller than one window's flight, sent at line
    // rate) says what the path carried, not that the window ran out: a busy container link's
    // smoothed RTT made such bursts of a few kB/s service look like running into window / RTT.
    if (facts.ceilingBytesPerSecond().isPresent()
        && info.deliveryRate().isPresent()
        && !info.deliveryRateAppLimited()) {
      double ceiling = facts.ceilingBytesPerSecond().getAsDouble();
      atCeiling = ceiling > 0 && info.deliveryRate().getAsLong() >= policy.demandRatio() * ceiling;
    }
    if (!windowBound && !atCeiling) {
      return null;
    }
    return String.format(
        Locale.ROOT,
        "%s, %s (rwnd-limited %.0f%% of busy time)",
        noScaling ? "no window scaling" : "peer window collapsed",
        facts.describe(),
        rwndLimited * 100);
  }
}
