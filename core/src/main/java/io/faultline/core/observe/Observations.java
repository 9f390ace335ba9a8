package io.faultline.core.observe;

import io.faultline.core.Loggers;
import io.faultline.core.finding.Finding;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

/**
 * A JVM-wide (per class loader) tap on what Faultline observes, for test tooling: every finding
 * reported and every guarded transaction that ended, handed to the subscribers on the thread that
 * observed it, which is what lets a test extension attribute it to the test running on that thread.
 *
 * <p>Subscribers see every report, not only the registry's changes: a finding already active (the
 * same call site in an earlier test) is still seen each time it is reported again.
 *
 * <p>Everything a subscriber receives is a JDK type ({@code String}, {@code Map}, numbers), and so
 * is {@link #subscribe}'s signature: the agent carries a relocated copy of this class, which a
 * caller on the application's class path reaches by reflection with the same call.
 *
 * <p>Costs one volatile read when nobody subscribed. Never throws into the caller: a subscriber's
 * failure is logged at DEBUG and dropped.
 */
public final class Observations {

  /** The kind of a reported finding; see {@link #finding}. */
  public static final String FINDING = "finding";

  /** The kind of an ended guarded transaction; see {@link #transaction}. */
  public static final String TRANSACTION = "transaction";

  private static final System.Logger LOG = Loggers.get(Observations.class.getName());
  private static final CopyOnWriteArrayList<BiConsumer<String, Map<String, Object>>> SUBSCRIBERS =
      new CopyOnWriteArrayList<>();

  // Read on every report: true once anyone subscribed, so the common case reads one field.
  private static volatile boolean active;

  private Observations() {}

  /**
   * Calls {@code subscriber} with (kind, values) for everything observed from now on, on the
   * observing thread; it must be quick and must not block. Returns what unsubscribes it.
   */
  public static Runnable subscribe(BiConsumer<String, Map<String, Object>> subscriber) {
    Objects.requireNonNull(subscriber, "subscriber");
    SUBSCRIBERS.add(subscriber);
    active = true;
    return () -> {
      SUBSCRIBERS.remove(subscriber);
      active = !SUBSCRIBERS.isEmpty();
    };
  }

  /** Whether anyone subscribed: lets a caller skip preparing what nobody reads. */
  public static boolean active() {
    return active;
  }

  /**
   * A finding was reported. Values: {@code id}, {@code severity}, {@code subject}, {@code message},
   * {@code title}, {@code remediation}, {@code docs}, {@code evidence} (a map).
   */
  public static void finding(Finding finding) {
    if (!active || finding == null) {
      return;
    }
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("id", finding.id());
    values.put("severity", finding.severity().name());
    values.put("subject", finding.subject());
    values.put("message", finding.message());
    values.put("title", finding.type().title());
    values.put("remediation", finding.type().remediation());
    values.put("docs", finding.type().docsReference());
    values.put("evidence", Map.copyOf(finding.evidence()));
    publish(FINDING, values);
  }

  /**
   * A guarded transaction ended.
   *
   * @param callSite where its top level was begun
   * @param savepoints savepoints it created
   * @param maxDepth its deepest level, 1 when nothing was nested in it
   * @param statements statements it ran
   * @param committed whether it committed
   */
  public static void transaction(
      String callSite, int savepoints, int maxDepth, long statements, boolean committed) {
    if (!active) {
      return;
    }
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("callSite", callSite);
    values.put("savepoints", savepoints);
    values.put("maxDepth", maxDepth);
    values.put("statements", statements);
    values.put("committed", committed);
    publish(TRANSACTION, values);
  }

  private static void publish(String kind, Map<String, Object> values) {
    Map<String, Object> frozen = Collections.unmodifiableMap(values);
    for (BiConsumer<String, Map<String, Object>> subscriber : SUBSCRIBERS) {
      try {
        subscriber.accept(kind, frozen);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.DEBUG, "faultline: an observation subscriber failed", e);
      }
    }
  }
}
