package io.faultline.jooq;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/** The JDK Flight Recorder event of every timeout a guarded transaction hit. */
@Name("io.faultline.GuardedTimeout")
@Label("Guarded Timeout")
@Category({"Faultline", "jOOQ"})
@Description("A guarded jOOQ transaction hit its statement, lock or transaction timeout")
final class GuardedTimeoutRecording extends jdk.jfr.Event {

  @Label("Kind")
  @Description("statement, lock or transaction")
  String kind;

  @Label("Transaction Call Site")
  String transactionCallSite;

  @Label("Timeout")
  @Description("The timeout in force; 0 when it was not set by the guard")
  @Timespan(Timespan.MILLISECONDS)
  long timeout;

  static void commit(String kind, String transactionCallSite, long timeoutMillis) {
    GuardedTimeoutRecording e = new GuardedTimeoutRecording();
    if (e.shouldCommit()) {
      e.kind = kind;
      e.transactionCallSite = transactionCallSite;
      e.timeout = timeoutMillis;
      e.commit();
    }
  }
}
