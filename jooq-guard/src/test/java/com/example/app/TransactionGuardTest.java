package com.example.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.faultline.core.config.ConfigSources;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.jooq.CallSite;
import io.faultline.jooq.FlattenedRollbackException;
import io.faultline.jooq.GuardStats;
import io.faultline.jooq.GuardedTransactionProvider;
import io.faultline.jooq.JooqFindingTypes;
import io.faultline.jooq.NestedTransactionException;
import io.faultline.jooq.NestingPolicy;
import io.faultline.jooq.SqlLiterals;
import io.faultline.jooq.TransactionGuard;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.junit.jupiter.api.Test;

/**
 * The policies and the ledger, driven through jOOQ's real transaction API onto a fake delegate. The
 * test plays the application, so it lives outside Faultline's packages (whose frames are never a
 * call site).
 */
class TransactionGuardTest {

  private final RecordingProvider delegate = new RecordingProvider();
  private final Findings findings =
      new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("test"));

  private GuardedTransactionProvider guarded(NestingPolicy policy) {
    return GuardedTransactionProvider.wrap(delegate)
        .nesting(policy)
        .findings(findings)
        .subtransactionLimit(3)
        .build();
  }

  private static DSLContext dsl(GuardedTransactionProvider provider) {
    return DSL.using(new DefaultConfiguration().set(SQLDialect.POSTGRES).set(provider));
  }

  @Test
  void allowCountsSavepointsCreatedReleasedAndRolledBack() {
    GuardedTransactionProvider provider = guarded(NestingPolicy.ALLOW);
    dsl(provider)
        .transaction(
            outer -> {
              DSL.using(outer).transaction(inner -> {});
              try {
                DSL.using(outer)
                    .transaction(
                        inner -> {
                          throw new IllegalStateException("inner fails");
                        });
              } catch (IllegalStateException expected) {
                // the outer transaction carries on
              }
            });

    assertThat(delegate.calls)
        .containsExactly("begin1", "begin2", "commit2", "begin2", "rollback2", "commit1");
    GuardStats stats = provider.guard().stats();
    assertThat(stats.committed()).isEqualTo(1);
    assertThat(stats.savepointsCreated()).isEqualTo(2);
    assertThat(stats.savepointsReleased()).isEqualTo(1);
    assertThat(stats.savepointsRolledBack()).isEqualTo(1);
    assertThat(TransactionGuard.openLevelsOnThisThread()).isZero();
    assertThat(findings.active()).isEmpty();
  }

  @Test
  void separateTopLevelTransactionsAreNotNested() {
    GuardedTransactionProvider provider = guarded(NestingPolicy.FAIL);
    DSLContext dsl = dsl(provider);
    dsl.transaction(c -> {});
    dsl.transaction(c -> {});

    assertThat(delegate.calls).containsExactly("begin1", "commit1", "begin1", "commit1");
    assertThat(provider.guard().stats().committed()).isEqualTo(2);
  }

  @Test
  void failRefusesBeforeTheDelegateSeesTheInnerTransactionAndNamesBothCallSites() {
    GuardedTransactionProvider provider = guarded(NestingPolicy.FAIL);

    assertThatThrownBy(
            () -> dsl(provider).transaction(outer -> DSL.using(outer).transaction(inner -> {})))
        .isInstanceOf(NestedTransactionException.class)
        .hasMessageContaining("jooq.nesting=FAIL")
        .hasMessageContaining(TransactionGuardTest.class.getName(), Integer.MAX_VALUE);

    // The outer transaction is rolled back by the exception reaching it; the delegate never saw
    // the inner one.
    assertThat(delegate.calls).containsExactly("begin1", "rollback1");
    GuardStats stats = provider.guard().stats();
    assertThat(stats.nestedRefused()).isEqualTo(1);
    assertThat(stats.savepointsCreated()).isZero();
    assertThat(stats.rolledBack()).isEqualTo(1);
    assertThat(findings.active())
        .extracting(Finding::id)
        .containsExactly(JooqFindingTypes.NESTED_TRANSACTION.id());
  }

  @Test
  void failLetsTheOuterTransactionCatchTheRefusalAndCommit() {
    GuardedTransactionProvider provider = guarded(NestingPolicy.FAIL);
    AtomicReference<NestedTransactionException> refused = new AtomicReference<>();
    AtomicBoolean innerRan = new AtomicBoolean();
    dsl(provider)
        .transaction(
            outer -> {
              try {
                DSL.using(outer).transaction(inner -> innerRan.set(true));
              } catch (NestedTransactionException expected) {
                refused.set(expected); // handled by the application
              }
            });
    // FLATTEN would also end in begin1, commit1: what makes this FAIL is the refusal.
    assertThat(refused.get()).as("the nested transaction was refused").isNotNull();
    assertThat(innerRan).as("its body never ran").isFalse();
    assertThat(delegate.calls).containsExactly("begin1", "commit1");
    GuardStats stats = provider.guard().stats();
    assertThat(stats.nestedRefused()).isEqualTo(1);
    assertThat(stats.nestedFlattened()).isZero();
    assertThat(stats.committed()).isEqualTo(1);
  }

  @Test
  void flattenJoinsWithoutTheDelegateAndAnInnerFailureRollsBackTheWhole() {
    GuardedTransactionProvider provider = guarded(NestingPolicy.FLATTEN);

    assertThatThrownBy(
            () ->
                dsl(provider)
                    .transaction(
                        outer -> {
                          DSL.using(outer).transaction(inner -> {});
                          try {
                            DSL.using(outer)
                                .transaction(
                                    inner -> {
                                      throw new IllegalStateException("inner fails");
                                    });
                          } catch (IllegalStateException swallowed) {
                            // the outer code swallows it: the commit must still not happen
                          }
                        }))
        .isInstanceOf(FlattenedRollbackException.class);

    assertThat(delegate.calls).containsExactly("begin1", "rollback1");
    GuardStats stats = provider.guard().stats();
    assertThat(stats.nestedFlattened()).isEqualTo(2);
    assertThat(stats.savepointsCreated()).isZero();
    assertThat(stats.failed()).isEqualTo(1);
  }

  @Test
  void warnRaisesOneFindingPerCallSite() {
    GuardedTransactionProvider provider = guarded(NestingPolicy.WARN);
    DSLContext dsl = dsl(provider);
    for (int i = 0; i < 3; i++) {
      dsl.transaction(outer -> DSL.using(outer).transaction(inner -> {}));
    }
    dsl.transaction(outer -> DSL.using(outer).transaction(inner -> {}));

    assertThat(findings.active())
        .extracting(Finding::id)
        .containsExactly(
            JooqFindingTypes.NESTED_TRANSACTION.id(), JooqFindingTypes.NESTED_TRANSACTION.id());
    assertThat(findings.raisedCount(JooqFindingTypes.NESTED_TRANSACTION.id())).isEqualTo(2);
    assertThat(provider.guard().nestedCallSites().values()).containsExactlyInAnyOrder(3L, 1L);
    assertThat(provider.guard().nestedCallSites().keySet())
        .allSatisfy(site -> assertThat(site.className()).startsWith(getClass().getName()));
  }

  @Test
  void moreSavepointsThanTheLimitRaiseSubtransactionOverflowOnce() {
    GuardedTransactionProvider provider = guarded(NestingPolicy.ALLOW);
    dsl(provider)
        .transaction(
            outer -> {
              for (int i = 0; i < 6; i++) {
                DSL.using(outer).transaction(inner -> {});
              }
            });
    assertThat(findings.active())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.id()).isEqualTo(JooqFindingTypes.SUBTRANSACTION_OVERFLOW.id());
              assertThat(f.evidence()).containsEntry("savepoints", 4).containsEntry("limit", 3);
            });
  }

  @Test
  void aSavepointAfterAForUpdateRaisesTheRowLockFinding() {
    GuardedTransactionProvider provider = guarded(NestingPolicy.ALLOW);
    dsl(provider)
        .transaction(
            outer -> {
              // No database: the row lock is recorded the way the statement listener records it.
              ((io.faultline.jooq.internal.Ledger)
                      outer.data(io.faultline.jooq.internal.Ledger.DATA_KEY))
                  .rowLocked("select * from account where id = 1 for update");
              DSL.using(outer).transaction(inner -> {});
            });
    assertThat(findings.active())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.id()).isEqualTo(JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK.id());
              assertThat(f.evidence().get("lockingStatement").toString()).contains("for update");
            });
  }

  @Test
  void theLockingStatementIsShownWithItsLiteralsMasked() {
    Finding f = rowLockFinding(guarded(NestingPolicy.ALLOW));
    assertThat(f.evidence().get("lockingStatement"))
        .isEqualTo("select * from account where email = ? and id = ? for update");
    assertThat(f.message())
        .endsWith("locked rows with: select * from account where email = ? and id = ? for update")
        .doesNotContain("alice");
  }

  @Test
  void keepShowsTheLockingStatementsLiterals() {
    GuardedTransactionProvider provider =
        GuardedTransactionProvider.wrap(delegate)
            .findings(findings)
            .sqlLiterals(SqlLiterals.KEEP)
            .build();
    Finding f = rowLockFinding(provider);
    assertThat(f.evidence().get("lockingStatement"))
        .isEqualTo("select * from account where email = 'alice@example.com' and id = 7 for update");
  }

  @Test
  void theSqlLiteralsKeyIsReadFromTheConfiguration() {
    FaultlineConfig keep =
        FaultlineConfig.builder()
            .sources(ConfigSources.of(Map.of(), Map.of(), "jooq.sql.literals=keep"))
            .load();
    assertThat(keep.problems()).isEmpty();
    assertThat(GuardedTransactionProvider.wrap(delegate).config(keep).buildGuard().sqlLiterals())
        .isEqualTo(SqlLiterals.KEEP);
    FaultlineConfig defaults = FaultlineConfig.defaults();
    assertThat(
            GuardedTransactionProvider.wrap(delegate).config(defaults).buildGuard().sqlLiterals())
        .isEqualTo(SqlLiterals.MASK);
    // A bad value is rejected, and the statement stays masked.
    FaultlineConfig bad =
        FaultlineConfig.builder()
            .sources(ConfigSources.of(Map.of(), Map.of(), "jooq.sql.literals=raw"))
            .load();
    assertThat(bad.problems()).isNotEmpty();
    assertThat(GuardedTransactionProvider.wrap(delegate).config(bad).buildGuard().sqlLiterals())
        .isEqualTo(SqlLiterals.MASK);
  }

  private Finding rowLockFinding(GuardedTransactionProvider provider) {
    dsl(provider)
        .transaction(
            outer -> {
              ((io.faultline.jooq.internal.Ledger)
                      outer.data(io.faultline.jooq.internal.Ledger.DATA_KEY))
                  .rowLocked(
                      "select * from account\n where email = 'alice@example.com' and id = 7"
                          + " for update");
              DSL.using(outer).transaction(inner -> {});
            });
    return findings.active().stream()
        .filter(f -> f.id().equals(JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK.id()))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void theCallSiteIsTheApplicationFrame() {
    assertThat(CallSite.current().methodName()).isEqualTo("theCallSiteIsTheApplicationFrame");
  }

  @Test
  void aDelegateThatDoesNotMakeSavepointsIsCountedAsJoins() {
    GuardedTransactionProvider provider =
        GuardedTransactionProvider.wrap(delegate)
            .nesting(NestingPolicy.ALLOW)
            .savepoints(false)
            .build();
    dsl(provider).transaction(outer -> DSL.using(outer).transaction(inner -> {}));
    assertThat(provider.guard().stats().savepointsCreated()).isZero();
    assertThat(provider.guard().stats().nestedAllowed()).isEqualTo(1);
  }
}
