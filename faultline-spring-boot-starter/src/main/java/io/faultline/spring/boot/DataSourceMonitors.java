package io.faultline.spring.boot;

import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Findings;
import io.faultline.jooq.JooqConfigKeys;
import io.faultline.jooq.pool.PoolFeedbackConfigKeys;
import io.faultline.jooq.pool.PoolFeedbackMonitor;
import io.faultline.jooq.postgres.PostgresHealthMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;

/**
 * For every PostgreSQL {@link DataSource} bean: a {@link PostgresHealthMetrics}, its meters tagged
 * {@code datasource=<bean name>} so several databases do not collide on one registry, and, when the
 * bean is a HikariCP pool, a {@link PoolFeedbackMonitor} (its meters carry the pool's name).
 * Started with the context, after every data source exists; stopped (threads, connections, meters)
 * with it.
 */
final class DataSourceMonitors implements SmartLifecycle {

  private static final System.Logger LOG = System.getLogger(DataSourceMonitors.class.getName());

  private final ListableBeanFactory beans;
  private final FaultlineConfig config;
  private final Findings findings;
  private final ObjectProvider<MeterRegistry> meterRegistry;
  private final List<AutoCloseable> running = new ArrayList<>();

  DataSourceMonitors(
      ListableBeanFactory beans,
      FaultlineConfig config,
      Findings findings,
      ObjectProvider<MeterRegistry> meterRegistry) {
    this.beans = beans;
    this.config = config;
    this.findings = findings;
    this.meterRegistry = meterRegistry;
  }

  @Override
  public synchronized void start() {
    boolean health = config.isFeatureEnabled(JooqConfigKeys.HEALTH);
    boolean pool = config.isFeatureEnabled(PoolFeedbackConfigKeys.FEATURE);
    if (!health && !pool) {
      return;
    }
    MeterRegistry registry = meterRegistry.getIfAvailable();
    for (Map.Entry<String, DataSource> entry : beans.getBeansOfType(DataSource.class).entrySet()) {
      if (!isPostgres(entry.getKey(), entry.getValue())) {
        continue;
      }
      if (health) {
        running.add(startHealth(entry.getKey(), entry.getValue(), registry));
      }
      if (pool) {
        PoolFeedbackMonitor.Builder feedback =
            PoolFeedbackMonitor.builder(entry.getValue()).config(config).findings(findings);
        if (registry != null) {
          feedback.meterRegistry(registry);
        }
        // Empty when the data source is not HikariCP (logged by the builder).
        feedback.start().ifPresent(running::add);
      }
    }
  }

  private PostgresHealthMetrics startHealth(
      String name, DataSource dataSource, MeterRegistry registry) {
    PostgresHealthMetrics health =
        PostgresHealthMetrics.builder(dataSource)
            .config(config)
            .findings(findings)
            .tags("datasource", name)
            .build();
    if (registry != null) {
      health.bindTo(registry);
    }
    health.start();
    return health;
  }

  /** Only PostgreSQL has the statistics polled; asked once, with one connection. */
  private static boolean isPostgres(String name, DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      return "PostgreSQL".equals(connection.getMetaData().getDatabaseProductName());
    } catch (SQLException | RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "faultline: data source ''{0}'' could not be asked what database it is ({1});"
              + " its PostgreSQL health is not polled",
          name,
          e.toString());
      return false;
    }
  }

  @Override
  public synchronized void stop() {
    for (AutoCloseable monitor : running) {
      try {
        monitor.close();
      } catch (Exception e) {
        LOG.log(System.Logger.Level.WARNING, "faultline: a monitor did not close", e);
      }
    }
    running.clear();
  }

  @Override
  public synchronized boolean isRunning() {
    return !running.isEmpty();
  }
}
