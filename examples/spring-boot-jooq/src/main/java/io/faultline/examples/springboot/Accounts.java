package io.faultline.examples.springboot;

import org.jooq.DSLContext;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The service's accounts, with the Channel.io PostgreSQL outage's flow written two ways: a row
 * locked with {@code SELECT … FOR UPDATE}, then the write in a nested transaction, which is a
 * savepoint after the row lock. Its tests ({@code AccountsTest}) call this bean from a
 * {@code @SpringBootTest} with {@code @FaultlineTest}.
 */
@Service
public class Accounts {

  private final DSLContext dsl;
  private final Ledger ledger;

  Accounts(DSLContext dsl, Ledger ledger) {
    this.dsl = dsl;
    this.ledger = ledger;
  }

  /** Creates the tables if they are not there. */
  public void createSchema() {
    dsl.execute(
        "CREATE TABLE IF NOT EXISTS boot_account (id int PRIMARY KEY, balance int NOT NULL)");
    dsl.execute(
        "CREATE TABLE IF NOT EXISTS boot_ledger (id serial PRIMARY KEY, account int NOT NULL,"
            + " amount int NOT NULL)");
  }

  /** Opens (or resets) account {@code id} with {@code balance}. */
  public void open(int id, int balance) {
    dsl.execute(
        "INSERT INTO boot_account VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET balance ="
            + " excluded.balance",
        id,
        balance);
  }

  /** The account's balance. */
  public int balance(int id) {
    return ((Number) dsl.fetchValue("SELECT balance FROM boot_account WHERE id = ?", id))
        .intValue();
  }

  /**
   * jOOQ's nesting: locks the account, then debits it in a nested {@code dsl.transaction}, a
   * savepoint unless {@code faultline.jooq.nesting=flatten} joins it to the outer transaction.
   */
  public void withdraw(int id, int amount) {
    dsl.transaction(
        outer -> {
          outer.dsl().fetch("SELECT * FROM boot_account WHERE id = ? FOR UPDATE", id);
          outer
              .dsl()
              .transaction(
                  inner ->
                      inner
                          .dsl()
                          .execute(
                              "UPDATE boot_account SET balance = balance - ? WHERE id = ?",
                              amount,
                              id));
        });
  }

  /**
   * Spring's nesting: locks the account and debits it, then writes the ledger entry in a {@code
   * propagation = NESTED} method, a savepoint Spring makes after the row lock.
   */
  @Transactional
  public void withdrawAndRecord(int id, int amount) {
    lockAndDebit(id, amount);
    ledger.recordInSavepoint(id, amount);
  }

  /** The same with the ledger entry written in the caller's transaction: no savepoint. */
  @Transactional
  public void withdrawAndRecordInOneTransaction(int id, int amount) {
    lockAndDebit(id, amount);
    ledger.record(id, amount);
  }

  private void lockAndDebit(int id, int amount) {
    dsl.fetch("SELECT * FROM boot_account WHERE id = ? FOR UPDATE", id);
    dsl.execute("UPDATE boot_account SET balance = balance - ? WHERE id = ?", amount, id);
  }
}
