package com.example.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.Findings;
import io.faultline.core.observe.Observations;
import io.faultline.jooq.GuardedTransactionProvider;
import io.faultline.jooq.NestingPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the guard announces to {@link Observations} (what faultline-junit listens to): each ended
 * top-level transaction with its call site, savepoints and depth, on the thread that ran it, and
 * each finding once, with or without a findings registry.
 */
class ObservedTransactionsTest {

  private final List<String> kinds = new CopyOnWriteArrayList<>();
  private final List<Map<String, Object>> seen = new CopyOnWriteArrayList<>();
  private final List<String> threads = new CopyOnWriteArrayList<>();
  private Runnable unsubscribe;

  @BeforeEach
  void subscribe() {
    unsubscribe =
        Observations.subscribe(
            (kind, values) -> {
              kinds.add(kind);
              seen.add(values);
              threads.add(Thread.currentThread().getName());
            });
  }

  @AfterEach
  void unsubscribe() {
    unsubscribe.run();
  }

  private static DSLContext dsl(GuardedTransactionProvider.Builder builder) {
    return DSL.using(new DefaultConfiguration().set(SQLDialect.POSTGRES).set(builder.build()));
  }

  private List<Map<String, Object>> of(String kind) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (int i = 0; i < kinds.size(); i++) {
      if (kinds.get(i).equals(kind)) {
        out.add(seen.get(i));
      }
    }
    return out;
  }

  @Test
  void eachEndedTransactionIsAnnouncedWithItsCallSiteSavepointsAndDepth() {
    DSLContext dsl =
        dsl(GuardedTransactionProvider.wrap(new RecordingProvider()).nesting(NestingPolicy.ALLOW));

    dsl.transaction(
        outer ->
            DSL.using(outer)
                .transaction(
                    middle -> {
                      DSL.using(middle).transaction(inner -> {});
                      DSL.using(middle).transaction(inner -> {});
                    }));
    try {
      dsl.transaction(
          tx -> {
            throw new IllegalStateException("rolls back");
          });
    } catch (IllegalStateException expected) {
      // announced as not committed
    }

    List<Map<String, Object>> transactions = of(Observations.TRANSACTION);
    assertThat(transactions).hasSize(2);
    assertThat(transactions.get(0))
        .containsEntry("savepoints", 3)
        .containsEntry("maxDepth", 3)
        .containsEntry("statements", 0L)
        .containsEntry("committed", true);
    assertThat((String) transactions.get(0).get("callSite"))
        .startsWith(getClass().getName() + ".eachEndedTransactionIsAnnounced");
    assertThat(transactions.get(1)).containsEntry("maxDepth", 1).containsEntry("committed", false);
    assertThat(threads).containsOnly(Thread.currentThread().getName());
  }

  @Test
  void aGuardWithoutARegistryStillAnnouncesItsFindingsAndOneWithAnnouncesThemOnce() {
    dsl(GuardedTransactionProvider.wrap(new RecordingProvider()).nesting(NestingPolicy.WARN))
        .transaction(outer -> DSL.using(outer).transaction(inner -> {}));
    Findings registry = new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("test"));
    dsl(GuardedTransactionProvider.wrap(new RecordingProvider())
            .nesting(NestingPolicy.WARN)
            .findings(registry))
        .transaction(outer -> DSL.using(outer).transaction(inner -> {}));

    assertThat(of(Observations.FINDING))
        .extracting(v -> v.get("id"))
        .containsExactly("JOOQ_NESTED_TRANSACTION", "JOOQ_NESTED_TRANSACTION");
    assertThat(registry.active()).hasSize(1);
  }

  @Test
  void nothingIsPreparedWhenNobodyListens() {
    unsubscribe.run();
    assertThat(Observations.active()).isFalse();

    dsl(GuardedTransactionProvider.wrap(new RecordingProvider()).nesting(NestingPolicy.ALLOW))
        .transaction(outer -> DSL.using(outer).transaction(inner -> {}));

    assertThat(kinds).isEmpty();
    unsubscribe = () -> {};
  }
}
