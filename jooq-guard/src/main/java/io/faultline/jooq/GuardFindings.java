package io.faultline.jooq;

import io.faultline.core.Jfr;
import io.faultline.core.Loggers;
import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.core.observe.Observations;
import io.faultline.jooq.internal.Ledger;
import io.faultline.jooq.internal.Level;
import io.faultline.jooq.internal.SqlText;

/**
 * Writes the guard's findings ({@code JOOQ_NESTED_TRANSACTION}, {@code
 * JOOQ_SAVEPOINT_AFTER_ROW_LOCK}, {@code JOOQ_SUBTRANSACTION_OVERFLOW}) and the {@code WARN}
 * policy's log line. Deciding when to raise them is the callers' job.
 */
final class GuardFindings {

  private static final System.Logger LOG = Loggers.get(TransactionGuard.class.getName());

  /** The locking statement's length in a finding. */
  private static final int STATEMENT_CHARS = 160;

  private final Findings findings;
  private final NestingPolicy policy;
  private final SqlLiterals literals;

  /**
   * Findings go to {@code findings} (none when null); {@code policy} is named in them; statements
   * are shown as {@code literals} says.
   */
  GuardFindings(Findings findings, NestingPolicy policy, SqlLiterals literals) {
    this.findings = findings;
    this.policy = policy;
    this.literals = literals;
  }

  /**
   * A nested transaction begun at {@code site}, first seen there; logged too under WARN. {@code
   * byManager}: a transaction manager outside jOOQ begins it and makes the savepoint itself
   * ({@code @Transactional(propagation = NESTED)}), so FLATTEN cannot flatten it.
   */
  void nested(Ledger ledger, CallSite site, int depth, boolean byManager) {
    boolean unflattened = byManager && policy == NestingPolicy.FLATTEN;
    String note =
        unflattened
            ? "; the transaction manager makes this savepoint itself, so jooq.nesting=FLATTEN"
                + " cannot join it to the outer transaction"
            : "";
    if (policy == NestingPolicy.WARN || unflattened) {
      LOG.log(
          System.Logger.Level.WARNING,
          "faultline: nested transaction (a SAVEPOINT) begun at {0} inside the transaction"
              + " begun at {1}; logged once per call site (jooq.nesting={2}){3}",
          site,
          ledger.topCallSite(),
          policy,
          note);
    }
    raise(
        Finding.of(JooqFindingTypes.NESTED_TRANSACTION, site.toString())
            .message(
                "a transaction is begun at "
                    + site
                    + " inside the one begun at "
                    + ledger.topCallSite()
                    + " (jooq.nesting="
                    + policy
                    + ")"
                    + note)
            .evidence("outerCallSite", ledger.topCallSite().toString())
            .evidence("depth", depth)
            .evidence("policy", policy.name())
            .evidence("begunBy", byManager ? "transaction manager" : "jOOQ")
            .build());
  }

  /**
   * A savepoint ({@code level}) begun after the transaction locked rows: the MultiXact pattern.
   * {@code byManager}: a transaction manager made it, which jooq.nesting=FLATTEN cannot prevent.
   */
  void savepointAfterRowLock(Ledger ledger, Level level, boolean byManager) {
    String statement = SqlText.shown(ledger.rowLockSql(), literals, STATEMENT_CHARS);
    if (Jfr.recording()) {
      SavepointAfterRowLockRecording.commit(
          level.callSite().toString(), ledger.topCallSite().toString(), statement, level.depth());
    }
    raise(
        Finding.of(JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK, level.callSite().toString())
            .message(
                "a savepoint is begun at "
                    + level.callSite()
                    + " after the transaction begun at "
                    + ledger.topCallSite()
                    + " locked rows with: "
                    + statement
                    + (byManager
                        ? "; the transaction manager makes this savepoint itself"
                            + " (@Transactional(propagation = NESTED)), so jooq.nesting=FLATTEN"
                            + " cannot remove it: use REQUIRED, or lock the rows inside the nested"
                            + " method"
                        : ""))
            .evidence("outerCallSite", ledger.topCallSite().toString())
            .evidence("lockingStatement", statement)
            .evidence("begunBy", byManager ? "transaction manager" : "jOOQ")
            .build());
  }

  /** The transaction created {@code count} savepoints, more than {@code limit}. */
  void subtransactionOverflow(Ledger ledger, int count, int limit) {
    raise(
        Finding.of(JooqFindingTypes.SUBTRANSACTION_OVERFLOW, ledger.topCallSite().toString())
            .message(
                "the transaction begun at "
                    + ledger.topCallSite()
                    + " created more than "
                    + limit
                    + " savepoints")
            .evidence("savepoints", count)
            .evidence("limit", limit)
            .build());
  }

  private void raise(Finding finding) {
    if (findings != null) {
      findings.raise(finding);
    } else {
      // No registry: a test extension may still be listening (the registry tells it otherwise).
      Observations.finding(finding);
    }
  }
}
