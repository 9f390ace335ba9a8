package io.faultline.jooq.internal;

import io.faultline.jooq.CallSite;

/** One transaction level of a {@link Ledger}: what it is, where it was begun, how deep it is. */
public final class Level {

  private final LevelKind kind;
  // Null for a top level until someone asks (see Ledger#topCallSite), and for a nested level whose
  // begin was not walked until one of its own hooks asks (see #callSite).
  private CallSite callSite;
  private final int depth;
  private final int weight;
  private final Level below;
  private boolean beginFailed;
  private boolean commitFailed;
  private boolean adopted;

  /**
   * @param weight how many nested begins the walk that found {@code callSite} stands for (more than
   *     one when call sites are sampled); 0 when this begin was not walked
   * @param below the level this one is nested in; null for a top level
   */
  Level(LevelKind kind, CallSite callSite, int depth, int weight, Level below) {
    this.kind = kind;
    this.callSite = callSite;
    this.depth = depth;
    this.weight = weight;
    this.below = below;
  }

  /** The level this one is nested in; null for a top level. */
  Level below() {
    return below;
  }

  /** Whether the delegate failed to begin it. */
  public boolean beginFailed() {
    return beginFailed;
  }

  /** Records that the delegate failed to begin it. */
  public void markBeginFailed() {
    beginFailed = true;
  }

  /** Whether its commit failed (jOOQ then rolls it back). */
  public boolean commitFailed() {
    return commitFailed;
  }

  /** Records that its commit failed. */
  public void markCommitFailed() {
    commitFailed = true;
  }

  /**
   * Whether a jOOQ transaction begun on a configuration without a ledger became this nested level
   * of a transaction a manager outside jOOQ had begun (Spring's {@code @Transactional}); its
   * configuration then holds the ledger until this level ends.
   */
  public boolean adopted() {
    return adopted;
  }

  /** Records that this level was adopted (see {@link #adopted()}). */
  public void markAdopted() {
    adopted = true;
  }

  /**
   * A top level's call site, found from the stack on first use (see {@link Ledger#topCallSite()}).
   */
  CallSite topCallSite() {
    if (callSite == null) {
      callSite = CallSite.outermostTransaction();
    }
    return callSite;
  }

  /** What this level is. */
  public LevelKind kind() {
    return kind;
  }

  /**
   * Where it was begun; for a top level, ask {@link Ledger#topCallSite()}, which finds it on first
   * use (until then this says UNKNOWN). A nested level whose begin was not walked (see {@link
   * #weight()}) is found from the stack here, on first use: call it only from this level's own
   * hooks, while its frames are on the stack.
   */
  public CallSite callSite() {
    if (callSite == null && kind != LevelKind.TOP) {
      try {
        callSite = CallSite.current();
      } catch (RuntimeException e) {
        // Asked from hooks that must not throw into the application (a flattened rollback).
        callSite = CallSite.UNKNOWN;
      }
    }
    return callSite == null ? CallSite.UNKNOWN : callSite;
  }

  /**
   * How many nested begins this level's call site stands for in per-site counts: 1 when every begin
   * is walked, more when they are sampled, 0 when this one was not walked (it is in no per-site
   * count).
   */
  public int weight() {
    return weight;
  }

  /** 1 for the top level. */
  public int depth() {
    return depth;
  }
}
