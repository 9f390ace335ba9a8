package com.example.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.jooq.FlattenedRollbackException;
import io.faultline.jooq.GuardStats;
import io.faultline.jooq.GuardedTransactionProvider;
import io.faultline.jooq.JooqFindingTypes;
import io.faultline.jooq.NestedTransactionException;
import io.faultline.jooq.NestingPolicy;
import io.faultline.jooq.TransactionGuard;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.TransactionContext;
import org.jooq.TransactionProvider;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.jooq.tools.jdbc.MockConnection;
import org.jooq.tools.jdbc.MockResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Transactions a manager outside jOOQ begins (Spring's {@code @Transactional}), told to the guard
 * through its managed hooks as Spring's transaction execution listener tells them; statements run
 * through jOOQ with the guard's listener on a JDBC mock. The test plays the transaction manager.
 */
class ManagedTransactionsTest {

  private final Findings findings =
      new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("test"));

  private TransactionGuard guard(NestingPolicy policy) {
    return GuardedTransactionProvider.wrap(null)
        .nesting(policy)
        .findings(findings)
        .subtransactionLimit(2)
        .buildGuard();
  }

  /** Boot's DSLContext: no transaction of its own, the guard's statement listener on it. */
  private static DSLContext dsl(TransactionGuard guard, TransactionProvider provider) {
    DefaultConfiguration configuration = new DefaultConfiguration();
    configuration.set(SQLDialect.POSTGRES);
    configuration.set(new MockConnection(ctx -> new MockResult[] {new MockResult(0)}));
    configuration.set(guard.executeListenerProvider());
    if (provider != null) {
      configuration.set(provider);
    }
    return DSL.using(configuration);
  }

  @AfterEach
  void nothingLeftOpen() {
    assertThat(TransactionGuard.openLevelsOnThisThread()).isZero();
  }

  @Test
  void aNestedManagedLevelAfterARowLockIsTheIncidentsPattern() {
    TransactionGuard guard = guard(NestingPolicy.WARN);
    DSLContext dsl = dsl(guard, null);
    Object top = guard.managedBeginEnter(false);
    guard.managedBeginExit(top, null);
    dsl.execute("SELECT * FROM account WHERE id = 1 FOR UPDATE");
    Object savepoint = nestedSavepoint(guard);
    dsl.execute("UPDATE account SET balance = balance - 1 WHERE id = 1");
    guard.managedEnd(savepoint, true);
    guard.managedEnd(top, true);

    GuardStats stats = guard.stats();
    assertThat(stats.committed()).isEqualTo(1);
    assertThat(stats.nestedAllowed()).isEqualTo(1);
    assertThat(stats.savepointsCreated()).isEqualTo(1);
    assertThat(stats.savepointsReleased()).isEqualTo(1);
    assertThat(findings.active())
        .extracting(Finding::id)
        .containsExactlyInAnyOrder(
            JooqFindingTypes.NESTED_TRANSACTION.id(),
            JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK.id());
    assertThat(findings.active())
        .filteredOn(f -> f.id().equals(JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK.id()))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.subject()).contains(ManagedTransactionsTest.class.getName());
              assertThat(f.evidence().get("lockingStatement"))
                  .isEqualTo("SELECT * FROM account WHERE id = ? FOR UPDATE");
              // Spring made this savepoint: FLATTEN is no way out, and the message says so.
              assertThat(f.evidence().get("begunBy")).isEqualTo("transaction manager");
              assertThat(f.message()).contains("cannot remove it: use REQUIRED");
            });
  }

  /** The listener's calls for a NESTED begin, on one line so the call site is this method. */
  private static Object nestedSavepoint(TransactionGuard guard) {
    Object token = guard.managedBeginEnter(true);
    guard.managedBeginExit(token, null);
    return token;
  }

  @Test
  void withoutARowLockASavepointIsOnlyNested() {
    TransactionGuard guard = guard(NestingPolicy.ALLOW);
    Object top = guard.managedBeginEnter(false);
    guard.managedBeginExit(top, null);
    Object inner = nestedSavepoint(guard);
    guard.managedEnd(inner, false);
    guard.managedEnd(top, false);
    assertThat(guard.stats().savepointsRolledBack()).isEqualTo(1);
    assertThat(guard.stats().rolledBack()).isEqualTo(1);
    assertThat(findings.active()).isEmpty();
  }

  @Test
  void failRefusesANestedBeginAndLeavesTheOuterLevelOpen() {
    TransactionGuard guard = guard(NestingPolicy.FAIL);
    Object top = guard.managedBeginEnter(false);
    guard.managedBeginExit(top, null);
    assertThatThrownBy(() -> guard.managedBeginEnter(true))
        .isInstanceOf(NestedTransactionException.class);
    assertThat(TransactionGuard.openLevelsOnThisThread()).isEqualTo(1);
    guard.managedEnd(top, false);
    assertThat(guard.stats().nestedRefused()).isEqualTo(1);
    assertThat(guard.stats().savepointsCreated()).isZero();
  }

  @Test
  void flattenCannotFlattenAManagedSavepointAndSaysSo() {
    TransactionGuard guard = guard(NestingPolicy.FLATTEN);
    Object top = guard.managedBeginEnter(false);
    guard.managedBeginExit(top, null);
    Object inner = nestedSavepoint(guard);
    guard.managedEnd(inner, true);
    guard.managedEnd(top, true);
    assertThat(guard.stats().savepointsCreated()).isEqualTo(1);
    assertThat(guard.stats().nestedFlattened()).isZero();
    assertThat(findings.active())
        .singleElement()
        .satisfies(f -> assertThat(f.message()).contains("cannot join it"));
  }

  @Test
  void anEndNeverReportedIsClosedWithTheLevelBelowAndALateOneIsIgnored() {
    TransactionGuard guard = guard(NestingPolicy.ALLOW);
    Object top = guard.managedBeginEnter(false);
    guard.managedBeginExit(top, null);
    Object lost = nestedSavepoint(guard);
    guard.managedEnd(top, true);
    guard.managedEnd(lost, true);
    assertThat(guard.stats().committed()).isEqualTo(1);
    assertThat(guard.stats().savepointsReleased()).isZero();
  }

  @Test
  void aFailedBeginEndsTheLevel() {
    TransactionGuard guard = guard(NestingPolicy.ALLOW);
    Object top = guard.managedBeginEnter(false);
    guard.managedBeginExit(top, new IllegalStateException("no connection"));
    assertThat(guard.stats().failed()).isEqualTo(1);
  }

  @Test
  void aNestedBeginWithNoTransactionOpenIsNotFollowed() {
    assertThat(guard(NestingPolicy.WARN).managedBeginEnter(true)).isNull();
  }

  /**
   * Boot's SpringTransactionProvider: a jOOQ transaction that asks the manager for a NESTED level,
   * so the manager's listener reports the same level while the provider's begin is running.
   */
  private static final class ManagerBackedProvider implements TransactionProvider {
    private final TransactionGuard guard;
    final List<Object> managerTokens = new ArrayList<>();

    ManagerBackedProvider(TransactionGuard guard) {
      this.guard = guard;
    }

    @Override
    public void begin(TransactionContext ctx) {
      managerTokens.add(guard.managedBeginEnter(true));
    }

    @Override
    public void commit(TransactionContext ctx) {}

    @Override
    public void rollback(TransactionContext ctx) {}
  }

  @Test
  void aJooqTransactionInsideAManagedOneIsOneSavepointCountedOnce() {
    TransactionGuard guard = guard(NestingPolicy.WARN);
    ManagerBackedProvider manager = new ManagerBackedProvider(guard);
    DSLContext dsl = dsl(guard, GuardedTransactionProvider.sharing(manager, guard));
    Object top = guard.managedBeginEnter(false);
    guard.managedBeginExit(top, null);
    dsl.execute("SELECT * FROM account WHERE id = 1 FOR UPDATE");
    dsl.transaction(inner -> inner.dsl().execute("UPDATE account SET balance = 0"));
    guard.managedEnd(top, true);

    assertThat(manager.managerTokens)
        .as("the manager's own report is left out")
        .containsOnlyNulls();
    GuardStats stats = guard.stats();
    assertThat(stats.committed()).isEqualTo(1);
    assertThat(stats.savepointsCreated()).isEqualTo(1);
    assertThat(stats.savepointsReleased()).isEqualTo(1);
    assertThat(findings.active())
        .filteredOn(f -> f.id().equals(JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK.id()))
        .singleElement()
        .satisfies(f -> assertThat(f.evidence().get("begunBy")).isEqualTo("jOOQ"));
  }

  @Test
  void flattenKeepsAJooqTransactionInsideAManagedOneFromTheManager() {
    TransactionGuard guard = guard(NestingPolicy.FLATTEN);
    ManagerBackedProvider manager = new ManagerBackedProvider(guard);
    DSLContext dsl = dsl(guard, GuardedTransactionProvider.sharing(manager, guard));
    Object top = guard.managedBeginEnter(false);
    guard.managedBeginExit(top, null);
    dsl.transaction(inner -> {});
    guard.managedEnd(top, true);
    assertThat(manager.managerTokens).isEmpty();
    assertThat(guard.stats().nestedFlattened()).isEqualTo(1);
    assertThat(guard.stats().savepointsCreated()).isZero();
  }

  @Test
  void aFailedFlattenedJooqTransactionKeepsTheManagedOneFromCommitting() {
    TransactionGuard guard = guard(NestingPolicy.FLATTEN);
    ManagerBackedProvider manager = new ManagerBackedProvider(guard);
    DSLContext dsl = dsl(guard, GuardedTransactionProvider.sharing(manager, guard));
    Object top = guard.managedBeginEnter(false);
    guard.managedBeginExit(top, null);
    try {
      dsl.transaction(
          inner -> {
            throw new IllegalStateException("inner fails");
          });
    } catch (IllegalStateException caught) {
      // the application carries on in the outer transaction
    }
    assertThatThrownBy(() -> guard.managedCommitEnter(top))
        .isInstanceOf(FlattenedRollbackException.class);
    guard.managedEnd(top, false);
    assertThat(guard.stats().rolledBack()).isEqualTo(1);
  }

  @Test
  void aManagedTransactionWithoutFailedFlattenedLevelsCommits() {
    TransactionGuard guard = guard(NestingPolicy.FLATTEN);
    Object top = guard.managedBeginEnter(false);
    guard.managedBeginExit(top, null);
    guard.managedCommitEnter(top);
    guard.managedEnd(top, true);
    assertThat(guard.stats().committed()).isEqualTo(1);
  }

  @Test
  void aJooqTransactionOutsideAnyManagedOneIsTopLevel() {
    TransactionGuard guard = guard(NestingPolicy.WARN);
    ManagerBackedProvider manager = new ManagerBackedProvider(guard);
    DSLContext dsl = dsl(guard, GuardedTransactionProvider.sharing(manager, guard));
    dsl.transaction(inner -> {});
    assertThat(guard.stats().committed()).isEqualTo(1);
    assertThat(guard.stats().nestedAllowed()).isZero();
  }
}
