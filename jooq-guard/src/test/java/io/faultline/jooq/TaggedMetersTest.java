package io.faultline.jooq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.faultline.core.metrics.MeterCatalog;
import io.faultline.core.metrics.MeterConvention;
import io.faultline.core.metrics.MeterDoc;
import io.faultline.jooq.pool.PoolFeedbackMonitor;
import io.faultline.jooq.postgres.PostgresHealthMetrics;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.jooq.impl.DefaultConnectionProvider;
import org.jooq.impl.DefaultTransactionProvider;
import org.jooq.tools.jdbc.MockConnection;
import org.jooq.tools.jdbc.MockResult;
import org.junit.jupiter.api.Test;

/**
 * Two guards on one registry, told apart by their tags; the guard's own logic over jOOQ's mock
 * connection (the real-database proof is the integration suite's {@code
 * TaggedMetersOnPostgresTest}).
 */
class TaggedMetersTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private GuardedTransactionProvider guard(String db, DSLContext[] dsl) {
    MockConnection connection =
        new MockConnection(ctx -> new MockResult[] {new MockResult(1, null)});
    DefaultConnectionProvider connections = new DefaultConnectionProvider(connection);
    GuardedTransactionProvider provider =
        GuardedTransactionProvider.wrap(new DefaultTransactionProvider(connections))
            .meterRegistry(registry)
            .tags("db", db)
            .build();
    dsl[0] =
        DSL.using(
            new DefaultConfiguration().set(SQLDialect.POSTGRES).set(connections).set(provider));
    return provider;
  }

  private double committed(String db) {
    return registry
        .get("faultline.jooq.transactions")
        .tags("db", db, "outcome", "committed")
        .functionCounter()
        .count();
  }

  @Test
  void twoGuardsCountSeparatelyAndUnbindingOneRemovesOnlyItsMeters() {
    DSLContext[] orders = new DSLContext[1];
    DSLContext[] billing = new DSLContext[1];
    GuardedTransactionProvider ordersGuard = guard("orders", orders);
    GuardedTransactionProvider billingGuard = guard("billing", billing);

    orders[0].transaction(tx -> tx.dsl().execute("update t set x = 1"));
    orders[0].transaction(tx -> tx.dsl().execute("update t set x = 2"));
    billing[0].transaction(tx -> tx.dsl().execute("update t set x = 3"));

    assertThat(committed("orders")).isEqualTo(2.0);
    assertThat(committed("billing")).isEqualTo(1.0);
    int perGuard = registry.getMeters().size() / 2;
    assertThat(registry.find("faultline.jooq.transactions").meters()).hasSize(6);
    assertThat(registry.getMeters())
        .allSatisfy(m -> assertThat(m.getId().getTag("db")).isIn("orders", "billing"));

    ordersGuard.guard().unbindMeters();

    assertThat(registry.getMeters())
        .hasSize(perGuard)
        .extracting(m -> m.getId().getTag("db"))
        .containsOnly("billing");
    billing[0].transaction(tx -> tx.dsl().execute("update t set x = 4"));
    assertThat(committed("billing")).isEqualTo(2.0);
    billingGuard.guard().unbindMeters();
    assertThat(registry.getMeters()).isEmpty();
  }

  @Test
  void anUntaggedSecondGuardDoesNotRemoveTheFirstOnesMeters() {
    GuardedTransactionProvider first = untagged();
    GuardedTransactionProvider second = untagged();
    assertThat(registry.getMeters()).hasSize(14);

    second.guard().unbindMeters();

    assertThat(registry.getMeters()).hasSize(14);
    first.guard().unbindMeters();
    assertThat(registry.getMeters()).isEmpty();
  }

  private GuardedTransactionProvider untagged() {
    return GuardedTransactionProvider.wrap(
            new DefaultTransactionProvider(new DefaultConnectionProvider(null)))
        .meterRegistry(registry)
        .build();
  }

  @Test
  void everyMeterOfTheGuardCarriesTheTags() {
    GuardedTransactionProvider provider =
        GuardedTransactionProvider.wrap(
                new DefaultTransactionProvider(new DefaultConnectionProvider(null)))
            .meterRegistry(registry)
            .tags(List.of(Tag.of("db", "orders"), Tag.of("region", "eu")))
            .build();

    assertThat(registry.getMeters())
        .hasSize(14)
        .extracting(Meter::getId)
        .allSatisfy(
            id -> {
              assertThat(id.getTag("db")).isEqualTo("orders");
              assertThat(id.getTag("region")).isEqualTo("eu");
            });
    provider.guard().unbindMeters();
  }

  @Test
  void buildersRefuseBadTagsNamingTheField() {
    GuardedTransactionProvider.Builder guard =
        GuardedTransactionProvider.wrap(
            new DefaultTransactionProvider(new DefaultConnectionProvider(null)));
    assertThatThrownBy(() -> guard.tags((String[]) null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("tags");
    assertThatThrownBy(() -> guard.tags((Iterable<Tag>) null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("tags");
    assertThatThrownBy(() -> guard.tags("db"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tags: key/value pairs expected, got an odd count 1");
    assertThatThrownBy(() -> guard.tags("outcome", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tags: tag key 'outcome' is set by the meter faultline.jooq.");
    assertThatThrownBy(() -> guard.tags(List.of(Tag.of("kind", "x"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'kind'")
        .hasMessageContaining("faultline.jooq.timeouts");

    PostgresHealthMetrics.Builder health =
        PostgresHealthMetrics.builder("jdbc:postgresql://localhost/none", "u", "p");
    assertThatThrownBy(() -> health.tags("slru", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'slru'")
        .hasMessageContaining("faultline.pg.slru.hit.ratio");
    assertThatThrownBy(() -> health.tags("db", "orders", "outcome"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("odd count 3");

    PoolFeedbackMonitor.Builder pool = PoolFeedbackMonitor.builderForHikari(new Object());
    assertThatThrownBy(() -> pool.tags("pool", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'pool'");
  }

  @Test
  void theModulesMetersFollowTheConvention() {
    List<MeterDoc> meters = new ArrayList<>();
    ServiceLoader.load(MeterCatalog.class).forEach(c -> meters.addAll(c.meters()));
    assertThat(meters).extracting(MeterDoc::name).contains("faultline.jooq.savepoints");
    assertThat(MeterConvention.violations(meters)).isEmpty();
  }
}
