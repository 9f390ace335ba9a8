package io.faultline.jooq.internal;

import io.faultline.jooq.CallSite;

/** One transaction level of a {@link Ledger}: what it is, where it was begun, how deep it is. */
public final class Level {

  final LevelKind kind;
  final CallSite callSite;
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

  /** Where it was begun. */
  public CallSite callSite() {
    return callSite;
  }

  /** 1 for the top level. */
  public int depth() {
    return depth;
  }
}
