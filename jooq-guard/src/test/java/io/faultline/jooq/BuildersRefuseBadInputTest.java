package io.faultline.jooq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.faultline.core.config.ConfigSources;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.jooq.pool.PoolFeedbackMonitor;
import io.faultline.jooq.postgres.PostgresHealthMetrics;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jooq.impl.DefaultConnectionProvider;
import org.jooq.impl.DefaultTransactionProvider;
import org.junit.jupiter.api.Test;

/**
 * The programmatic builders refuse a bad value where it is given, naming the setter; only the text
 * configuration ({@code config(FaultlineConfig)}) stays lenient.
 */
class BuildersRefuseBadInputTest {

  private static void refusesNull(ThrowingCallable call, String field) {
    assertThatThrownBy(call).isInstanceOf(NullPointerException.class).hasMessageContaining(field);
  }

  private static void refusesValue(ThrowingCallable call, String message) {
    assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }

  @Test
  void guardedTransactionProviderBuilder() {
    GuardedTransactionProvider.Builder b =
        GuardedTransactionProvider.wrap(
            new DefaultTransactionProvider(new DefaultConnectionProvider(null)));
    refusesNull(() -> b.nesting(null), "nesting");
    refusesNull(() -> b.statementTimeout(null), "statementTimeout");
    refusesNull(() -> b.transactionTimeout(null), "transactionTimeout");
    refusesNull(() -> b.lockTimeout(null), "lockTimeout");
    refusesNull(() -> b.idleInTransactionTimeout(null), "idleInTransactionTimeout");
    refusesNull(() -> b.sqlLiterals(null), "sqlLiterals");
    refusesNull(() -> b.meterRegistry(null), "meterRegistry");
    refusesNull(() -> b.findings(null), "findings");
    Duration negative = Duration.ofSeconds(-1);
    refusesValue(
        () -> b.statementTimeout(negative),
        "statementTimeout must not be negative (zero leaves it unset), was PT-1S");
    refusesValue(
        () -> b.transactionTimeout(negative),
        "transactionTimeout must not be negative (zero leaves it unset), was PT-1S");
    refusesValue(
        () -> b.lockTimeout(negative),
        "lockTimeout must not be negative (zero leaves it unset), was PT-1S");
    refusesValue(
        () -> b.idleInTransactionTimeout(negative),
        "idleInTransactionTimeout must not be negative (zero leaves it unset), was PT-1S");
    refusesValue(() -> b.subtransactionLimit(0), "subtransactionLimit must be at least 1, was 0");
    refusesValue(() -> b.maxCallSites(0), "maxCallSites must be at least 1, was 0");
    refusesValue(
        () -> b.callSiteWalksPerSecond(-1), "callSiteWalksPerSecond must be at least 0, was -1");
    refusesNull(() -> GuardedTransactionProvider.wrap(null).build(), "delegate");

    // The limits themselves are accepted.
    assertThat(
            b.subtransactionLimit(1)
                .maxCallSites(1)
                .callSiteWalksPerSecond(0)
                .statementTimeout(Duration.ZERO)
                .build())
        .isNotNull();
  }

  @Test
  void postgresHealthMetricsBuilder() {
    refusesNull(() -> PostgresHealthMetrics.builder((DataSource) null), "dataSource");
    refusesNull(() -> PostgresHealthMetrics.builder(null, "u", "p"), "jdbcUrl");
    PostgresHealthMetrics.Builder b =
        PostgresHealthMetrics.builder("jdbc:postgresql://localhost/none", "u", "p");
    refusesNull(() -> b.interval(null), "interval");
    refusesNull(() -> b.longTransaction(null), "longTransaction");
    refusesNull(() -> b.findings(null), "findings");
    refusesValue(
        () -> b.interval(Duration.ofMillis(99)), "interval must be at least 100ms, was PT0.099S");
    refusesValue(
        () -> b.longTransaction(Duration.ofSeconds(-1)),
        "longTransaction must not be negative, was PT-1S");
    refusesValue(() -> b.multixactHitRatio(1.5), "multixactHitRatio must be within 0..1, was 1.5");
    refusesValue(
        () -> b.multixactHitRatio(-0.1), "multixactHitRatio must be within 0..1, was -0.1");
    refusesValue(
        () -> b.multixactHitRatio(Double.NaN), "multixactHitRatio must be within 0..1, was NaN");
    refusesValue(
        () -> b.multixactMinAccesses(-1), "multixactMinAccesses must not be negative, was -1");

    assertThat(
            b.interval(Duration.ofMillis(100))
                .longTransaction(Duration.ZERO)
                .multixactHitRatio(0)
                .multixactHitRatio(1)
                .multixactMinAccesses(0)
                .build())
        .isNotNull();
  }

  @Test
  void poolFeedbackMonitorBuilder() {
    refusesNull(() -> PoolFeedbackMonitor.builder(null), "appDataSource");
    refusesNull(() -> PoolFeedbackMonitor.builderForHikari(null), "hikariDataSource");
    PoolFeedbackMonitor.Builder b = PoolFeedbackMonitor.builderForHikari(new Object());
    refusesNull(() -> b.thresholds(null), "thresholds");
    refusesNull(() -> b.monitoringDataSource(null), "monitoring");
    refusesNull(() -> b.monitoringJdbcUrl(null, "u", "p"), "jdbcUrl");
    refusesNull(() -> b.findings(null), "findings");
    refusesNull(() -> b.meterRegistry(null), "meterRegistry");
    refusesNull(() -> b.lateMeterRegistry(null), "lateMeterRegistry");
    refusesNull(() -> b.executor(null), "executor");
    refusesNull(() -> b.nanoClock(null), "nanoClock");
    refusesNull(() -> b.start(null), "interval");
    refusesValue(
        () -> b.start(Duration.ofMillis(49)), "interval must be at least 50ms, was PT0.049S");
  }

  @Test
  void theTextConfigurationStaysLenient() {
    // Values the setters refuse reach the builders through config(...) without stopping anything:
    // the loader has reported what it could, and configuration never stops the application.
    FaultlineConfig config =
        FaultlineConfig.builder()
            .sources(
                ConfigSources.of(
                    Map.of(),
                    Map.of(),
                    "jooq.subtransaction-limit=0,jooq.call-sites.max=0,"
                        + "jooq.call-sites.walks-per-second=-5,jooq.health.interval=10ms,"
                        + "jooq.health.multixact-min-accesses=-1,jooq.health.multixact-hit-ratio=7,"
                        + "jooq.pool-feedback.interval=1ms"))
            .load();
    assertThat(
            GuardedTransactionProvider.wrap(
                    new DefaultTransactionProvider(new DefaultConnectionProvider(null)))
                .config(config)
                .build())
        .isNotNull();
    assertThat(GuardedTransactionProvider.wrap(null).config(config).buildGuard()).isNotNull();
    assertThat(
            PostgresHealthMetrics.builder("jdbc:postgresql://localhost/none", "u", "p")
                .config(config)
                .build())
        .isNotNull();
    // Not a HikariCP pool: empty, and no exception for the configured 1ms interval either.
    assertThat(PoolFeedbackMonitor.builderForHikari(new Object()).config(config).start()).isEmpty();
  }
}
