package io.faultline.agent.jooq;

import io.faultline.agent.AgentRuntime;
import io.faultline.agent.export.HtmlWriter;
import io.faultline.agent.export.StatusSection;
import io.faultline.jooq.JooqConfigKeys;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where nested transactions begin, for the status page's "Transaction nesting hotspots": per call
 * site of an inner {@code dsl.transaction}, how often, how many became savepoints, how many came
 * after a row lock (the MultiXact pattern), and the outer call site first seen. Bounded by {@code
 * jooq.call-sites.max}; further sites are counted under {@code other}.
 */
public final class NestingHotspots {

  private static final Map<String, Site> SITES = new ConcurrentHashMap<>();
  private static volatile int max = JooqConfigKeys.MAX_CALL_SITES.defaultValue();

  private NestingHotspots() {}

  private static final class Site {
    final String outer;
    final LongAdder count = new LongAdder();
    final LongAdder savepoints = new LongAdder();
    final LongAdder afterRowLock = new LongAdder();
    volatile String lastOutcome = "";

    Site(String outer) {
      this.outer = outer;
    }
  }

  /**
   * Counts one nested begin at {@code site} inside the transaction begun at {@code outerSite};
   * {@code outcome} is savepoint, join, flattened or refused.
   */
  public static void record(String site, String outerSite, String outcome, boolean afterRowLock) {
    record(site, outerSite, outcome, afterRowLock, 1);
  }

  /**
   * {@link #record(String, String, String, boolean)} for a sampled begin that stands for {@code
   * weight} nested begins ({@code jooq.call-sites.walks-per-second}).
   */
  public static void record(
      String site, String outerSite, String outcome, boolean afterRowLock, int weight) {
    String key = SITES.containsKey(site) || SITES.size() < max ? site : "other";
    Site s = SITES.computeIfAbsent(key, k -> new Site(outerSite));
    s.count.add(weight);
    if ("savepoint".equals(outcome)) {
      s.savepoints.add(weight);
      if (afterRowLock) {
        s.afterRowLock.add(weight);
      }
    }
    s.lastOutcome = outcome;
  }

  /** Adds the status page section (once per JVM). */
  static void installStatusSection(AgentRuntime runtime) {
    max = Math.max(1, runtime.config().get(JooqConfigKeys.MAX_CALL_SITES));
    runtime.statusPage().add(new Section());
  }

  private static final class Section implements StatusSection {
    @Override
    public String title() {
      return "Transaction nesting hotspots";
    }

    @Override
    public int order() {
      return 310;
    }

    @Override
    public void render(HtmlWriter html) {
      List<Map.Entry<String, Site>> entries = new ArrayList<>(SITES.entrySet());
      if (entries.isEmpty()) {
        html.paragraph("No nested jOOQ transaction yet.");
        return;
      }
      entries.sort(
          Comparator.comparingLong((Map.Entry<String, Site> e) -> e.getValue().count.sum())
              .reversed());
      List<List<Object>> rows = new ArrayList<>();
      for (Map.Entry<String, Site> e : entries) {
        Site s = e.getValue();
        rows.add(
            List.of(
                e.getKey(),
                s.count.sum(),
                s.savepoints.sum(),
                s.afterRowLock.sum(),
                s.lastOutcome,
                s.outer));
      }
      html.table(
          List.of(
              "Call site",
              "Nested begins",
              "Savepoints",
              "Savepoints after a row lock",
              "Last outcome",
              "Outer transaction begun at"),
          rows);
      html.note(
          "Each savepoint is a PostgreSQL subtransaction; after SELECT ... FOR UPDATE an update in"
              + " it makes a MultiXact. jooq.nesting=flatten joins instead, fail refuses. Counts"
              + " are exact up to jooq.call-sites.walks-per-second nested begins a second and"
              + " estimated from sampled begins beyond it.");
    }
  }
}
