package io.faultline.agent.jooq;

import io.faultline.agent.AgentRuntime;
import io.faultline.core.LogText;
import io.faultline.core.Loggers;
import io.faultline.jooq.JooqConfigKeys;
import io.faultline.jooq.postgres.PostgresHealthMetrics;
import java.sql.Connection;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/**
 * The agent's PostgreSQL health poller: started once, for the first {@link DataSource} a guarded
 * jOOQ transaction runs on, when that database is PostgreSQL. It borrows one connection of the
 * application's pool per {@code jooq.health.interval}.
 */
public final class JooqHealth {

  private static final System.Logger LOG = Loggers.get(JooqHealth.class.getName());
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private JooqHealth() {}

  /** Whether the configuration asks for the poller. */
  public static boolean wanted(AgentRuntime runtime) {
    return runtime.config().isFeatureEnabled(JooqConfigKeys.HEALTH)
        && !runtime.config().get(JooqConfigKeys.HEALTH_INTERVAL).isZero();
  }

  /** Whether it was started (or is being). */
  public static boolean started() {
    return STARTED.get();
  }

  /** Starts polling through {@code dataSource} on the agent's thread, unless already started. */
  public static void startOnce(AgentRuntime runtime, DataSource dataSource) {
    if (!STARTED.compareAndSet(false, true)) {
      return;
    }
    runtime.scheduler().execute(() -> start(runtime, dataSource));
  }

  private static void start(AgentRuntime runtime, DataSource dataSource) {
    try {
      String product;
      try (Connection c = dataSource.getConnection()) {
        product = c.getMetaData().getDatabaseProductName();
      }
      if (!"PostgreSQL".equalsIgnoreCase(product)) {
        LOG.log(
            System.Logger.Level.INFO,
            "faultline: no PostgreSQL health polling for " + LogText.oneLine(product));
        return;
      }
      PostgresHealthMetrics health =
          PostgresHealthMetrics.builder(dataSource)
              .config(runtime.config())
              .findings(runtime.findings())
              .build();
      // Polling (and its findings) from now; its meters once the agent's registry exists.
      health.start();
      runtime.lateMeters().whenReady(health::bindTo);
    } catch (Exception | LinkageError e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "faultline: PostgreSQL health polling failed to start, going on without it: "
              + LogText.oneLine(e));
    }
  }
}
