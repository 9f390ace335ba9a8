package io.faultline.jooq.internal;

import io.faultline.jooq.CallSite;

/** One transaction level of a {@link Ledger}: what it is, where it was begun, how deep it is. */
public final class Level {

  final LevelKind kind;
  // Null for a top level until someone asks: see Ledger#topCallSite.
  CallSite callSite;
  final int depth;

  /** Whether the delegate failed to begin it. */
  public boolean beginFailed;

  /** Whether its commit failed (jOOQ then rolls it back). */
  public boolean commitFailed;

  public Level(LevelKind kind, CallSite callSite, int depth) {
    this.kind = kind;
    this.callSite = callSite;
    this.depth = depth;
  }

  /** What this level is. */
  public LevelKind kind() {
    return kind;
  }

  /**
   * Where it was begun; for a top level, ask {@link Ledger#topCallSite()}, which finds it on first
   * use (until then this says UNKNOWN).
   */
  public CallSite callSite() {
    return callSite == null ? CallSite.UNKNOWN : callSite;
  }

  /** 1 for the top level. */
  public int depth() {
    return depth;
  }
}
