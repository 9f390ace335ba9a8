package io.faultline.agent.weave;

import java.util.ArrayList;
import java.util.List;

/** What the test advice saw, and how it should behave; public, as inlined advice needs. */
public final class Recorder {

  public static final List<String> CALLS = new ArrayList<>();
  public static volatile boolean throwInAdvice;
  public static volatile Object enterResult;
  public static volatile Throwable replacement;

  /** Returned by an enter advice to skip the body. */
  public static final class Skipped {}

  private Recorder() {}

  static void reset() {
    CALLS.clear();
    throwInAdvice = false;
    enterResult = null;
    replacement = null;
  }

  public static void call(String what) {
    CALLS.add(what);
  }

  public static void maybeThrow() {
    if (throwInAdvice) {
      throw new IllegalStateException("advice failure");
    }
  }

  /** The error hook of the tests' weaves. */
  public static void suppressed(Throwable error, String module) {
    CALLS.add("suppressed " + module + " " + error.getMessage());
  }
}
