package io.faultline.jooq;

import io.faultline.jooq.internal.GuardMetrics;
import io.faultline.jooq.internal.Ledger;
import io.faultline.jooq.internal.LevelKind;
import java.util.Map;

/**
 * The nesting policy's decision for a transaction begun inside another: count it per call site,
 * push the level it becomes (a savepoint or a join, flattened, refused) and report the first one
 * per call site.
 */
final class NestingGate {

  private final NestingPolicy policy;
  private final CallSiteCounts sites;
  private final GuardMetrics metrics;
  private final GuardFindings findings;
  private final GuardInternalErrors errors;

  NestingGate(
      NestingPolicy policy,
      int maxCallSites,
      GuardMetrics metrics,
      GuardFindings findings,
      GuardInternalErrors errors) {
    this.policy = policy;
    this.sites = new CallSiteCounts(maxCallSites);
    this.metrics = metrics;
    this.findings = findings;
    this.errors = errors;
  }

  /**
   * Admits a nested level begun at {@code site} into {@code ledger}. Returns whether the delegate
   * should begin it (false: flattened into the outer level).
   *
   * @param site where it was begun, or null when this begin was not walked (sampled out)
   * @param weight how many nested begins {@code site}'s count stands for; 0 when {@code site} is
   *     null
   * @param delegateSavepoints whether the delegate makes a nested level a savepoint
   * @param byManager whether a transaction manager outside jOOQ begins the level and makes the
   *     savepoint itself: FLATTEN cannot leave it to the outer level, and reports it like WARN
   * @throws NestedTransactionException under {@link NestingPolicy#FAIL}, before any savepoint
   */
  boolean admit(
      Ledger ledger, CallSite site, int weight, boolean delegateSavepoints, boolean byManager) {
    NestingPolicy policy =
        this.policy == NestingPolicy.FLATTEN && byManager ? NestingPolicy.WARN : this.policy;
    int depth = ledger.depth() + 1;
    CallSite counted = CallSite.UNKNOWN;
    boolean first = false;
    try {
      if (site != null) {
        CallSiteCounts.Counted c = sites.add(site, weight);
        counted = c.site();
        first = c.first();
      }
    } catch (RuntimeException e) {
      errors.record(e);
    }
    switch (policy) {
      case FAIL -> {
        ledger.push(LevelKind.REFUSED, site, weight);
        metrics.nestedRefused(ledger);
        if (first) {
          findings.nested(ledger, counted, depth, byManager);
        }
        throw new NestedTransactionException(ledger.topCallSite(), ledger.peek().callSite(), depth);
      }
      case FLATTEN -> {
        ledger.push(LevelKind.FLATTENED, site, weight);
        metrics.nestedFlattened(ledger);
        return false;
      }
      default -> {
        // WARN reports a call site's first nesting, then lets it happen like ALLOW.
        if (policy == NestingPolicy.WARN && first) {
          findings.nested(ledger, counted, depth, byManager);
        }
        ledger.push(delegateSavepoints ? LevelKind.SAVEPOINT : LevelKind.JOIN, site, weight);
        metrics.nestedAllowed(ledger);
        return true;
      }
    }
  }

  /** The policy in force. */
  NestingPolicy policy() {
    return policy;
  }

  /** Nested transactions counted per call site. */
  Map<CallSite, Long> callSites() {
    return sites.snapshot();
  }
}
