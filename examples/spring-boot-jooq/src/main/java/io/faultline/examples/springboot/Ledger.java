package io.faultline.examples.springboot;

import org.jooq.DSLContext;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The ledger {@link Accounts} writes each debit to; a bean of its own, so Spring's proxy applies.
 */
@Service
public class Ledger {

  private final DSLContext dsl;

  Ledger(DSLContext dsl) {
    this.dsl = dsl;
  }

  /** Writes the entry in a savepoint of the caller's transaction (Spring's {@code NESTED}). */
  @Transactional(propagation = Propagation.NESTED)
  public void recordInSavepoint(int account, int amount) {
    insert(account, amount);
  }

  /** Writes the entry in the caller's transaction ({@code REQUIRED}). */
  @Transactional
  public void record(int account, int amount) {
    insert(account, amount);
  }

  private void insert(int account, int amount) {
    dsl.execute("INSERT INTO boot_ledger (account, amount) VALUES (?, ?)", account, amount);
  }
}
