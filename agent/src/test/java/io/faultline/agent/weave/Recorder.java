package io.faultline.agent.weave;

import java.util.ArrayList;
import java.util.List;

/**
 * Hooks for the weaver tests: each call is recorded; some throw or change the outcome on demand.
 */
public final class Recorder {

  public static final List<String> CALLS = new ArrayList<>();
  public static final List<Throwable> SUPPRESSED = new ArrayList<>();
  public static volatile boolean throwInHooks;
  public static volatile Object enterResult;
  public static volatile Throwable replacement;

  /** Returned by an enter hook to skip the body. */
  public static final class Skipped {}

  private Recorder() {}

  static void reset() {
    CALLS.clear();
    SUPPRESSED.clear();
    throwInHooks = false;
    enterResult = null;
    replacement = null;
  }

  private static void maybeThrow() {
    if (throwInHooks) {
      throw new IllegalStateException("hook failure");
    }
  }

  public static long enterAdd(Object self, int a, int b) {
    CALLS.add("enter " + a + "+" + b);
    maybeThrow();
    return 42L;
  }

  public static void exitAdd(long entered, int returned, Throwable thrown) {
    CALLS.add("exit entered=" + entered + " returned=" + returned + " thrown=" + thrown);
    maybeThrow();
  }

  public static Object enterObject(Object self) {
    CALLS.add("enter");
    maybeThrow();
    return enterResult;
  }

  public static boolean enterBoolean(String node) {
    CALLS.add("enter " + node);
    return enterResult != null;
  }

  public static void exitAny(Object entered, Throwable thrown) {
    CALLS.add("exit entered=" + entered + " thrown=" + thrown);
    maybeThrow();
  }

  public static void exitReturned(Object returned, Throwable thrown) {
    CALLS.add("exit returned=" + returned + " thrown=" + thrown);
    maybeThrow();
  }

  public static Throwable replaceThrown(Object entered, Throwable thrown) {
    CALLS.add("exit thrown=" + thrown);
    return replacement;
  }

  public static boolean refuseConnect(String node, boolean canConnect) {
    CALLS.add("canConnect " + node + " " + canConnect);
    maybeThrow();
    return false;
  }

  public static long longerDelay(String node, long delay) {
    CALLS.add("delay " + node + " " + delay);
    return Math.max(delay, 100);
  }

  public static void exitLongAdd(long a, long returned) {
    CALLS.add("exit a=" + a + " returned=" + returned);
  }

  public static double exitHalf(double d, double returned) {
    CALLS.add("half " + d + " -> " + returned);
    return returned + 1;
  }

  public static void constructed(Object self, String label) {
    CALLS.add("constructed label=" + label);
  }

  public static void origin(Class<?> type, String method) {
    CALLS.add("origin " + type.getSimpleName() + " " + method);
  }

  public static void exitStatic(int n, int returned) {
    CALLS.add("loop " + n + " -> " + returned);
  }

  public static void suppressed(Throwable error, String module) {
    SUPPRESSED.add(error);
    CALLS.add("suppressed " + module + " " + error.getMessage());
  }
}
