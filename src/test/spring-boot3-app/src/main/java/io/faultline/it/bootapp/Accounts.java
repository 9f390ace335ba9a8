package io.faultline.it.bootapp;

import org.jooq.DSLContext;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The Channel.io outage's flow written the Spring way: a {@code @Transactional} service method
 * locks the account row with {@code SELECT ... FOR UPDATE} through Boot's {@code DSLContext}, then
 * a nested level writes it: a {@code @Transactional(propagation = NESTED)} method of another bean,
 * or a {@code dsl.transaction}, which Boot's jOOQ provider makes a NESTED level of Spring's
 * transaction. Each prints what PostgreSQL made of the row's lock while the transaction is open.
 */
@Service
public class Accounts {

  private final DSLContext dsl;
  private final AccountWrites writes;
  private final RowLockProbe probe;

  /** Created by Spring. */
  public Accounts(DSLContext dsl, AccountWrites writes, RowLockProbe probe) {
    this.dsl = dsl;
    this.writes = writes;
    this.probe = probe;
  }

  /** Lock, then a {@code @Transactional(propagation = NESTED)} method writes. */
  @Transactional
  public void debitThroughNestedMethod(int id) {
    dsl.fetch("SELECT * FROM boot_starter_account WHERE id = ? FOR UPDATE", id);
    writes.debit(id);
    System.out.println("transactional row: " + probe.describe(dsl, id));
  }

  /** Lock, then {@code dsl.transaction} writes (a NESTED level of Spring's transaction). */
  @Transactional
  public void debitThroughJooqTransaction(int id) {
    dsl.fetch("SELECT * FROM boot_starter_account WHERE id = ? FOR UPDATE", id);
    dsl.transaction(
        inner ->
            inner
                .dsl()
                .execute("UPDATE boot_starter_account SET balance = balance - 1 WHERE id = ?", id));
    System.out.println("mixed row: " + probe.describe(dsl, id));
  }

  /**
   * Lock, then a {@code dsl.transaction} that writes and fails, caught here: with a savepoint its
   * write is rolled back and the rest commits; flattened, its write ran in this transaction.
   */
  @Transactional
  public void debitThroughFailingJooqTransaction(int id) {
    dsl.fetch("SELECT * FROM boot_starter_account WHERE id = ? FOR UPDATE", id);
    try {
      dsl.transaction(
          inner -> {
            inner
                .dsl()
                .execute("UPDATE boot_starter_account SET balance = balance - 1 WHERE id = ?", id);
            throw new IllegalStateException("the inner level fails");
          });
    } catch (IllegalStateException caught) {
      System.out.println("inner failure caught");
    }
  }
}
