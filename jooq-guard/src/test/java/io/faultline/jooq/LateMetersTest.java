package io.faultline.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.metrics.LateRegistry;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
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
 * A guard whose registry does not exist yet (the agent's, created after the application's
 * start-up): transactions run before it are in its meters once it does, nothing is registered
 * before, and a guard unbound first registers nothing. Over jOOQ's mock connection: this is the
 * guard's own bookkeeping.
 */
class LateMetersTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<Consumer<MeterRegistry>> queued = new ArrayList<>();
  private final LateRegistry late = queued::add;

  private DSLContext guarded(GuardedTransactionProvider[] provider) {
    MockConnection connection =
        new MockConnection(ctx -> new MockResult[] {new MockResult(1, null)});
    DefaultConnectionProvider connections = new DefaultConnectionProvider(connection);
    provider[0] =
        GuardedTransactionProvider.wrap(new DefaultTransactionProvider(connections))
            .lateMeterRegistry(late)
            .build();
    return DSL.using(
        new DefaultConfiguration().set(SQLDialect.POSTGRES).set(connections).set(provider[0]));
  }

  private double committed() {
    return registry
        .get("faultline.jooq.transactions")
        .tags("outcome", "committed")
        .functionCounter()
        .count();
  }

  private void registryCreated() {
    queued.forEach(action -> action.accept(registry));
    queued.clear();
  }

  @Test
  void transactionsBeforeTheRegistryAreInItsMetersOnceItExists() {
    GuardedTransactionProvider[] provider = new GuardedTransactionProvider[1];
    DSLContext dsl = guarded(provider);

    dsl.transaction(tx -> tx.dsl().execute("update t set x = 1"));
    dsl.transaction(
        tx -> {
          tx.dsl().execute("update t set x = 2");
          tx.dsl().transaction(inner -> inner.dsl().execute("update t set x = 3"));
        });

    assertThat(registry.getMeters()).isEmpty();
    assertThat(provider[0].guard().stats().committed()).isEqualTo(2);

    registryCreated();

    assertThat(committed()).isEqualTo(2.0);
    // Only the transaction that nested a level is in the summaries.
    DistributionSummary depth = registry.get("faultline.jooq.nesting.depth").summary();
    assertThat(depth.count()).isEqualTo(1);
    assertThat(depth.max()).isEqualTo(2.0);
    DistributionSummary perTransaction =
        registry.get("faultline.jooq.savepoints.per.transaction").summary();
    assertThat(perTransaction.count()).isEqualTo(1);
    assertThat(perTransaction.totalAmount()).isEqualTo(1.0);

    dsl.transaction(tx -> tx.dsl().transaction(inner -> inner.dsl().execute("update t set x = 4")));
    dsl.transaction(tx -> tx.dsl().execute("update t set x = 5"));

    // The summaries take the new transaction when the guard's counters are next read (a scrape).
    assertThat(committed()).isEqualTo(4.0);
    assertThat(depth.count()).isEqualTo(2);
    assertThat(perTransaction.count()).isEqualTo(2);
    assertThat(perTransaction.totalAmount()).isEqualTo(2.0);
    provider[0].guard().unbindMeters();
    assertThat(registry.getMeters()).isEmpty();
  }

  @Test
  void aGuardUnboundBeforeTheRegistryExistsRegistersNothing() {
    GuardedTransactionProvider[] provider = new GuardedTransactionProvider[1];
    DSLContext dsl = guarded(provider);
    dsl.transaction(tx -> tx.dsl().execute("update t set x = 1"));

    provider[0].guard().unbindMeters();
    registryCreated();

    assertThat(registry.getMeters()).isEmpty();
    assertThat(provider[0].guard().stats().committed()).isEqualTo(1);
  }
}
