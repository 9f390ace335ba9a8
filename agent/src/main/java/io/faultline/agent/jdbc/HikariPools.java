package io.faultline.agent.jdbc;

import io.faultline.agent.AgentRuntime;
import io.faultline.core.LogText;
import io.faultline.core.Loggers;
import io.faultline.jooq.pool.HikariPoolReader;
import io.faultline.jooq.pool.PoolFeedbackMonitor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The HikariCP data sources the application constructed, held weakly until their pool starts (a
 * pool configured by setters, as Spring Boot builds them, starts at its first {@code
 * getConnection()}, and only then has its name and settings), then one {@link PoolFeedbackMonitor}
 * each. A sweep on the agent's scheduler every second does the waiting; the monitors read on their
 * own daemon threads, since their database query may block for seconds.
 */
public final class HikariPools {

  private static final System.Logger LOG = Loggers.get(HikariPools.class.getName());
  private static final Set<Object> PENDING = Collections.newSetFromMap(new WeakHashMap<>());
  private static final List<PoolFeedbackMonitor> MONITORS = new ArrayList<>();
  private static boolean sweeping;

  private HikariPools() {}

  /** A {@code HikariDataSource} was constructed; called from advice, takes it as an Object. */
  public static void constructed(Object dataSource) {
    synchronized (PENDING) {
      PENDING.add(dataSource);
      if (sweeping) {
        return;
      }
      Optional<AgentRuntime> runtime = AgentRuntime.current();
      if (runtime.isEmpty()) {
        return; // the next construction after the agent started schedules the sweep
      }
      runtime.get().scheduler().scheduleWithFixedDelay(HikariPools::sweep, 0, 1, TimeUnit.SECONDS);
      sweeping = true;
    }
  }

  /** The monitors running now (for the status of the agent and for tests). */
  public static List<PoolFeedbackMonitor> monitors() {
    synchronized (PENDING) {
      MONITORS.removeIf(PoolFeedbackMonitor::isClosed);
      return List.copyOf(MONITORS);
    }
  }

  private static void sweep() {
    try {
      List<Object> candidates;
      synchronized (PENDING) {
        MONITORS.removeIf(PoolFeedbackMonitor::isClosed);
        candidates = new ArrayList<>(PENDING);
      }
      for (Object dataSource : candidates) {
        Optional<HikariPoolReader> reader = HikariPoolReader.ofHikari(dataSource);
        if (reader.isPresent() && reader.get().read().isEmpty() && !reader.get().gone()) {
          continue; // not started yet
        }
        synchronized (PENDING) {
          PENDING.remove(dataSource);
        }
        if (reader.isPresent() && !reader.get().gone()) {
          start(dataSource);
        }
      }
    } catch (RuntimeException | LinkageError e) {
      LOG.log(System.Logger.Level.WARNING, "faultline: looking for HikariCP pools failed", e);
    }
  }

  private static void start(Object dataSource) {
    AgentRuntime runtime = AgentRuntime.current().orElse(null);
    if (runtime == null) {
      return;
    }
    PoolFeedbackMonitor.builderForHikari(dataSource)
        .config(runtime.config())
        .findings(runtime.findings())
        .lateMeterRegistry(runtime.lateMeters())
        .start()
        .ifPresent(
            monitor -> {
              // DEBUG: a pool being watched is the normal case; its faultline.pool.feedback.*
              // meters show it.
              LOG.log(
                  System.Logger.Level.DEBUG,
                  "faultline: watching HikariCP pool {0} for growth under contention",
                  LogText.oneLine(monitor.poolName()));
              synchronized (PENDING) {
                MONITORS.add(monitor);
              }
            });
  }
}
