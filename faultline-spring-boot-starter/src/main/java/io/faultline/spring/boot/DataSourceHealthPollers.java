package io.faultline.spring.boot;

import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Findings;
import io.faultline.jooq.JooqConfigKeys;
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
 * One {@link PostgresHealthMetrics} per PostgreSQL {@link DataSource} bean, tagged {@code
 * datasource=<bean name>} so several databases do not collide on one registry. Started with the
 * context, after every data source exists; stopped (thread, connection, meters) with it.
 */
final class DataSourceHealthPollers implements SmartLifecycle {

  private static final System.Logger LOG =
      System.getLogger(DataSourceHealthPollers.class.getName());

  private final ListableBeanFactory beans;
  private final FaultlineConfig config;
  private final Findings findings;
  private final ObjectProvider<MeterRegistry> meterRegistry;
  private final List<PostgresHealthMetrics> running = new ArrayList<>();

  DataSourceHealthPollers(
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
    if (!config.isFeatureEnabled(JooqConfigKeys.HEALTH)) {
      LOG.log(System.Logger.Level.INFO, "faultline: jooq.health is off; PostgreSQL is not polled");
      return;
    }
    MeterRegistry registry = meterRegistry.getIfAvailable();
    for (Map.Entry<String, DataSource> entry : beans.getBeansOfType(DataSource.class).entrySet()) {
      if (!isPostgres(entry.getKey(), entry.getValue())) {
        continue;
      }
      PostgresHealthMetrics health =
          PostgresHealthMetrics.builder(entry.getValue())
              .config(config)
              .findings(findings)
              .tags("datasource", entry.getKey())
              .build();
      if (registry != null) {
        health.bindTo(registry);
      }
      health.start();
      running.add(health);
    }
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
    running.forEach(PostgresHealthMetrics::close);
    running.clear();
  }

  @Override
  public synchronized boolean isRunning() {
    return !running.isEmpty();
  }
}
