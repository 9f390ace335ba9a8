package io.faultline.agent.weave;

/** Advice classes for the weaver tests; each is read from its class file and inlined. */
final class TestAdvice {

  private TestAdvice() {}

  public static final class Add {
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static long enter(
        @Advice.This Object self, @Advice.Argument(0) int a, @Advice.Argument(1) int b) {
      Recorder.call("enter " + a + "+" + b);
      Recorder.maybeThrow();
      return 42L;
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(
        @Advice.Enter long entered, @Advice.Return int returned, @Advice.Thrown Throwable thrown) {
      Recorder.call("exit entered=" + entered + " returned=" + returned + " thrown=" + thrown);
      Recorder.maybeThrow();
    }
  }

  public static final class SeesThrown {
    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Origin("#m#d") String method, @Advice.Thrown Throwable thrown) {
      Recorder.call("exit " + method + " thrown=" + thrown);
    }
  }

  public static final class SeesReturned {
    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Return Object returned, @Advice.Thrown Throwable thrown) {
      Recorder.call("exit returned=" + returned + " thrown=" + thrown);
    }
  }

  public static final class ReplacesThrown {
    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Thrown(readOnly = false) Throwable thrown) {
      Recorder.call("exit thrown=" + thrown);
      thrown = Recorder.replacement;
    }
  }

  public static final class SkipsOnInstance {
    @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Recorder.Skipped.class)
    public static Object enter(@Advice.This Object self) {
      Recorder.call("enter");
      return Recorder.enterResult;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Enter Object entered, @Advice.Return Object returned) {
      Recorder.call("exit entered=" + entered + " returned=" + returned);
    }
  }

  public static final class SkipsOnTrue {
    @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Advice.OnNonDefaultValue.class)
    public static boolean enter(@Advice.Argument(0) String node) {
      Recorder.call("enter " + node);
      return Recorder.enterResult != null;
    }
  }

  public static final class RefusesConnect {
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(
        @Advice.Argument(0) String node, @Advice.Return(readOnly = false) boolean canConnect) {
      Recorder.call("canConnect " + node + " " + canConnect);
      Recorder.maybeThrow();
      canConnect = false;
    }
  }

  public static final class LongerDelay {
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Return(readOnly = false) long delay) {
      delay = Math.max(delay, 100);
    }
  }

  public static final class TenfoldArgument {
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(value = 0, readOnly = false) long a) {
      Recorder.maybeThrow();
      a = a * 10;
    }
  }

  public static final class AssignsArgumentOnExit {
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Argument(value = 1, readOnly = false) int b) {
      b = 0;
    }
  }

  public static final class AssignsArgumentOfAnotherType {
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(value = 0, readOnly = false) Object a) {
      a = null;
    }
  }

  public static final class HalfPlusOne {
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(
        @Advice.Argument(0) double d, @Advice.Return(readOnly = false) double returned) {
      Recorder.call("half " + d + " -> " + returned);
      returned = returned + 1;
    }
  }

  public static final class WideValues {
    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Argument(0) long a, @Advice.Return long returned) {
      Recorder.call("exit a=" + a + " returned=" + returned);
    }
  }

  public static final class Origins {
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Origin Class<?> type, @Advice.Origin("#m#d") String method) {
      Recorder.call("origin " + type.getSimpleName() + " " + method);
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Origin Class<?> type, @Advice.Origin("#m#d") String method) {
      Recorder.call("origin " + type.getSimpleName() + " " + method);
    }
  }

  /** Its own loop, its own handler, its own locals: all of it must survive the inlining. */
  public static final class BusyAdvice {
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static int enter(@Advice.Argument(0) int times) {
      int sum = 0;
      for (int i = 0; i < times; i++) {
        try {
          if (i == 1) {
            throw new IllegalArgumentException("one");
          }
          sum += i;
        } catch (IllegalArgumentException e) {
          sum += 100;
        }
      }
      return sum;
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Enter int sum) {
      Recorder.call("busy sum=" + sum);
    }
  }

  public static final class Constructed {
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object self, @Advice.FieldValue("label") String label) {
      Recorder.call("constructed label=" + label);
    }
  }

  public static final class StaticReceiver {
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object self) {}
  }

  public static final class WrongFieldType {
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.FieldValue("total") int total) {}
  }

  public static final class MissingField {
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.FieldValue("missing") Object missing) {}
  }

  public static final class UsesLambda {
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter() {
      Runnable r = () -> Recorder.call("lambda");
      r.run();
    }
  }

  public static final class CallsPrivateHelper {
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter() {
      helper();
    }

    private static void helper() {}
  }

  public static final class UnboundParameter {
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(Object nothing) {}
  }

  public static final class VoidEnterSkips {
    @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Advice.OnNonDefaultValue.class)
    public static void enter() {}
  }

  public static final class CallsPackagePrivate {
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter() {
      Recorder.reset();
    }
  }

  /**
   * Wide values everywhere: arguments after longs and doubles, its own long locals and branches.
   */
  public static final class WideAdvice {
    @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Advice.OnNonDefaultValue.class)
    public static long enter(
        @Advice.Argument(2) double c, @Advice.Argument(3) String d, @Advice.Argument(4) long e) {
      long seen = 0;
      for (long i = 0; i < 3; i++) {
        seen += i;
      }
      Recorder.call("enter c=" + c + " d=" + d + " e=" + e + " seen=" + seen);
      return e == 99 ? 7L : 0L;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(
        @Advice.Enter long entered,
        @Advice.Argument(1) long b,
        @Advice.Return(readOnly = false) long returned,
        @Advice.Thrown Throwable thrown) {
      Recorder.call("exit entered=" + entered + " b=" + b + " returned=" + returned);
      if (entered != 0) {
        returned = -entered;
      }
    }
  }
}
