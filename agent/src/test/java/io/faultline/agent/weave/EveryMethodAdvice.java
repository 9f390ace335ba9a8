package io.faultline.agent.weave;

/** Advice for {@link WeaveEveryMethodTest}: what the agent's advice binds, on any method. */
final class EveryMethodAdvice {

  private EveryMethodAdvice() {}

  public static final class Instance {
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static Object enter(@Advice.This Object self) {
      return Recorder.enterResult;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(
        @Advice.Enter Object entered, @Advice.Thrown(readOnly = false) Throwable thrown) {
      if (entered != null) {
        thrown = Recorder.replacement;
      }
    }
  }

  public static final class ReferenceReturn {
    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Return Object returned, @Advice.Thrown Throwable thrown) {
      if (returned == null && thrown != null) {
        Recorder.call("thrown " + thrown);
      }
    }
  }

  public static final class Constructor {
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object self) {
      if (self == Recorder.enterResult) {
        Recorder.call("constructed");
      }
    }
  }
}
