package io.faultline.it.bootapp;

import org.jooq.DSLContext;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/** The inner write, in a savepoint of the caller's transaction. */
@Service
public class AccountWrites {

  private final DSLContext dsl;

  /** Created by Spring. */
  public AccountWrites(DSLContext dsl) {
    this.dsl = dsl;
  }

  /** Spring makes a savepoint for it; jOOQ is not asked. */
  @Transactional(propagation = Propagation.NESTED)
  public void debit(int id) {
    dsl.execute("UPDATE boot_starter_account SET balance = balance - 1 WHERE id = ?", id);
  }
}
