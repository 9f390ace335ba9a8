package io.faultline.jooq;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * The JDK Flight Recorder event of every savepoint begun after its transaction locked rows (the
 * MultiXact pattern of the Channel.io PostgreSQL outage), with the stack of the code that began it.
 */
@Name("io.faultline.SavepointAfterRowLock")
@Label("Savepoint After Row Lock")
@Category({"Faultline", "jOOQ"})
@Description(
    "A savepoint (PostgreSQL subtransaction) begun after the transaction locked rows with"
        + " SELECT ... FOR UPDATE/SHARE")
final class SavepointAfterRowLockRecording extends jdk.jfr.Event {

  @Label("Call Site")
  @Description("Where the nested transaction was begun")
  String callSite;

  @Label("Transaction Call Site")
  @Description("Where the top-level transaction was begun")
  String transactionCallSite;

  @Label("Locking Statement")
  @Description("The statement that locked rows, literals masked unless jooq.sql.literals=keep")
  String lockingStatement;

  @Label("Depth")
  int depth;

  static void commit(String callSite, String transactionCallSite, String statement, int depth) {
    SavepointAfterRowLockRecording e = new SavepointAfterRowLockRecording();
    if (e.shouldCommit()) {
      e.callSite = callSite;
      e.transactionCallSite = transactionCallSite;
      e.lockingStatement = statement;
      e.depth = depth;
      e.commit();
    }
  }
}
