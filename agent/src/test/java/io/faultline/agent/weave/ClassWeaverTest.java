package io.faultline.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ClassWeaverTest {

  private static final String TARGET = "io/faultline/agent/weave/WeaveTarget";
  private static final String RECORDER = "io/faultline/agent/weave/Recorder";
  private static final ErrorHook ERRORS = new ErrorHook(RECORDER, "suppressed", "test-module");

  @BeforeEach
  void reset() {
    Recorder.reset();
  }

  @Test
  void enterAndExitSeeTheArgumentsTheEnterResultAndTheReturnValue() throws Throwable {
    Object target =
        newTarget(
            "add",
            MethodAdvice.enter(
                    Hook.of(
                        RECORDER,
                        "enterAdd",
                        "(Ljava/lang/Object;II)J",
                        HookArg.THIS,
                        HookArg.argument(0),
                        HookArg.argument(1)))
                .exit(
                    Hook.of(
                        RECORDER,
                        "exitAdd",
                        "(JILjava/lang/Throwable;)V",
                        HookArg.ENTERED,
                        HookArg.RETURNED,
                        HookArg.THROWN))
                .build());

    assertThat(call(target, "add", 2, 3)).isEqualTo(5);
    assertThat(Recorder.CALLS)
        .containsExactly("enter 2+3", "exit entered=42 returned=5 thrown=null");
  }

  @Test
  void aHookThatThrowsIsReportedAndTheMethodRunsAsIfUnwoven() throws Throwable {
    Object target =
        newTarget(
            "add",
            MethodAdvice.enter(
                    Hook.of(
                        RECORDER,
                        "enterAdd",
                        "(Ljava/lang/Object;II)J",
                        HookArg.THIS,
                        HookArg.argument(0),
                        HookArg.argument(1)))
                .exit(
                    Hook.of(
                        RECORDER,
                        "exitAdd",
                        "(JILjava/lang/Throwable;)V",
                        HookArg.ENTERED,
                        HookArg.RETURNED,
                        HookArg.THROWN))
                .build());
    Recorder.throwInHooks = true;

    assertThat(call(target, "add", 2, 3)).isEqualTo(5);
    // The enter hook failed, so the exit hook sees the default, 0.
    assertThat(Recorder.CALLS)
        .containsExactly(
            "enter 2+3",
            "suppressed test-module hook failure",
            "exit entered=0 returned=5 thrown=null",
            "suppressed test-module hook failure");
  }

  @Test
  void anErrorHookTheClassCannotSeeIsDropped() throws Throwable {
    byte[] woven =
        ClassWeaver.weave(
                targetClassFile(),
                only(
                    "add",
                    MethodAdvice.enter(
                            Hook.of(
                                RECORDER,
                                "enterAdd",
                                "(Ljava/lang/Object;II)J",
                                HookArg.THIS,
                                HookArg.argument(0),
                                HookArg.argument(1)))
                        .build()),
                new ErrorHook("no/such/Errors", "suppressed", "m"))
            .classFile();
    Object target = define(woven).getConstructor().newInstance();
    Recorder.throwInHooks = true;

    assertThat(call(target, "add", 4, 5)).isEqualTo(9);
    assertThat(Recorder.CALLS).containsExactly("enter 4+5");
  }

  @Test
  void anExceptionReachesTheExitHookAndThenTheCaller() throws Throwable {
    Object target =
        newTarget(
            "fail",
            MethodAdvice.exit(
                    Hook.of(
                        RECORDER,
                        "exitAny",
                        "(Ljava/lang/Object;Ljava/lang/Throwable;)V",
                        HookArg.ORIGIN_METHOD,
                        HookArg.THROWN))
                .onThrowable()
                .build());

    assertThatThrownBy(() -> call(target, "fail", "boom"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("boom");
    assertThat(Recorder.CALLS)
        .containsExactly(
            "exit entered=fail(Ljava/lang/String;)V thrown=java.lang.IllegalStateException: boom");
  }

  @Test
  void theMethodsOwnHandlersKeepPrecedenceOverTheCatchAll() throws Throwable {
    Object target =
        newTarget(
            "caught",
            MethodAdvice.exit(
                    Hook.of(
                        RECORDER,
                        "exitReturned",
                        "(Ljava/lang/Object;Ljava/lang/Throwable;)V",
                        HookArg.RETURNED,
                        HookArg.THROWN))
                .onThrowable()
                .build());

    assertThat(call(target, "caught", (Object) null)).isEqualTo("caught");
    assertThat(call(target, "caught", "x")).isEqualTo("x");
    assertThat(Recorder.CALLS)
        .containsExactly("exit returned=caught thrown=null", "exit returned=x thrown=null");
  }

  @Test
  void anExitHookCanReplaceWhatIsThrownOrSwallowIt() throws Throwable {
    MethodAdvice replacing =
        MethodAdvice.exit(
                Hook.of(
                    RECORDER,
                    "replaceThrown",
                    "(Ljava/lang/Object;Ljava/lang/Throwable;)Ljava/lang/Throwable;",
                    HookArg.THIS,
                    HookArg.THROWN))
            .onThrowable()
            .exitResult(MethodAdvice.ExitResult.REPLACES_THROWN)
            .build();
    Object failing = newTarget("fail", replacing);
    Object syncing = newTarget("sync", replacing);

    Recorder.replacement = new UnsupportedOperationException("replaced");
    assertThatThrownBy(() -> call(failing, "fail", "boom"))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("replaced");
    // Thrown where nothing was: the normal return becomes a throw.
    assertThatThrownBy(() -> call(syncing, "sync", "value"))
        .isInstanceOf(UnsupportedOperationException.class);

    Recorder.replacement = null;
    call(failing, "fail", "swallowed");
    assertThat(call(syncing, "sync", (Object) null)).isNull();
    assertThat(call(syncing, "sync", "value")).isEqualTo("value");
  }

  @Test
  void anEnterResultOfTheSkipTypeSkipsTheBodyAndTheExitStillRuns() throws Throwable {
    Object target =
        newTarget(
            "sync",
            MethodAdvice.enter(
                    Hook.of(
                        RECORDER,
                        "enterObject",
                        "(Ljava/lang/Object;)Ljava/lang/Object;",
                        HookArg.THIS))
                .skip(Skip.onInstanceOf("io/faultline/agent/weave/Recorder$Skipped"))
                .exit(
                    Hook.of(
                        RECORDER,
                        "exitAny",
                        "(Ljava/lang/Object;Ljava/lang/Throwable;)V",
                        HookArg.ENTERED,
                        HookArg.THROWN))
                .onThrowable()
                .build());

    Recorder.enterResult = "not a skip";
    assertThat(call(target, "sync", "body ran")).isEqualTo("body ran");
    Recorder.enterResult = new Recorder.Skipped();
    // Skipped: the body's throw for null never happens, the default is returned.
    assertThat(call(target, "sync", (Object) null)).isNull();
    assertThat(Recorder.CALLS).hasSize(4);
    assertThat(Recorder.CALLS.get(3))
        .startsWith("exit entered=io.faultline.agent.weave.Recorder$Skipped");
  }

  @Test
  void aNonDefaultEnterResultSkipsWithoutAnExitHook() throws Throwable {
    Object target =
        newTarget(
            "canConnect",
            MethodAdvice.enter(
                    Hook.of(RECORDER, "enterBoolean", "(Ljava/lang/String;)Z", HookArg.argument(0)))
                .skip(Skip.ON_NON_DEFAULT)
                .build());

    assertThat(call(target, "canConnect", "n1", 1L)).isEqualTo(true);
    Recorder.enterResult = "skip";
    assertThat(call(target, "canConnect", "n1", 1L)).isEqualTo(false);
  }

  @Test
  void anExitHookCanReplaceThePrimitiveReturnValue() throws Throwable {
    Object connecting =
        newTarget(
            "canConnect",
            MethodAdvice.exit(
                    Hook.of(
                        RECORDER,
                        "refuseConnect",
                        "(Ljava/lang/String;Z)Z",
                        HookArg.argument(0),
                        HookArg.RETURNED))
                .exitResult(MethodAdvice.ExitResult.REPLACES_RETURN)
                .build());
    Object delaying =
        newTarget(
            "delay",
            MethodAdvice.exit(
                    Hook.of(
                        RECORDER,
                        "longerDelay",
                        "(Ljava/lang/String;J)J",
                        HookArg.argument(0),
                        HookArg.RETURNED))
                .exitResult(MethodAdvice.ExitResult.REPLACES_RETURN)
                .build());
    Object halving =
        newTarget(
            "half",
            MethodAdvice.exit(
                    Hook.of(RECORDER, "exitHalf", "(DD)D", HookArg.argument(0), HookArg.RETURNED))
                .exitResult(MethodAdvice.ExitResult.REPLACES_RETURN)
                .build());

    assertThat(call(connecting, "canConnect", "n1", 7L)).isEqualTo(false);
    assertThat(call(delaying, "delay", "n2", 7L)).isEqualTo(100L);
    assertThat(call(halving, "half", 3.0)).isEqualTo(2.5);
    // A failing hook leaves the method's own value.
    Recorder.throwInHooks = true;
    assertThat(call(connecting, "canConnect", "n1", 7L)).isEqualTo(true);
  }

  @Test
  void wideArgumentsAndSeveralReturnsAreHandled() throws Throwable {
    Object target =
        newTarget(
            "addLong",
            MethodAdvice.exit(
                    Hook.of(
                        RECORDER, "exitLongAdd", "(JJ)V", HookArg.argument(0), HookArg.RETURNED))
                .onThrowable()
                .build());

    assertThat(call(target, "addLong", -5L, 1)).isEqualTo(-1L);
    assertThat(call(target, "addLong", 5L, 1)).isEqualTo(6L);
    assertThat(Recorder.CALLS).containsExactly("exit a=-5 returned=-1", "exit a=5 returned=6");
  }

  @Test
  void aLoopAtTheFirstInstructionAndASwitchKeepTheirFrames() throws Throwable {
    Class<?> type =
        wovenType(
            (name, descriptor, access) ->
                name.equals("loopFromStart") || name.equals("switcher") || name.equals("count")
                    ? MethodAdvice.enter(
                            Hook.of(
                                RECORDER,
                                "origin",
                                "(Ljava/lang/Class;Ljava/lang/String;)V",
                                HookArg.ORIGIN_TYPE,
                                HookArg.ORIGIN_METHOD))
                        .exit(
                            Hook.of(
                                RECORDER,
                                "origin",
                                "(Ljava/lang/Class;Ljava/lang/String;)V",
                                HookArg.ORIGIN_TYPE,
                                HookArg.ORIGIN_METHOD))
                        .onThrowable()
                        .build()
                    : null);
    Object target = type.getConstructor().newInstance();

    assertThat(type.getMethod("loopFromStart", int.class).invoke(null, 20)).isEqualTo(8);
    assertThat(call(target, "switcher", 2)).isEqualTo(20);
    assertThat(call(target, "switcher", 7)).isEqualTo(7);
    call(target, "count", 3);
    assertThat(Recorder.CALLS)
        .hasSize(8)
        .allMatch(c -> c.startsWith("origin WeaveTarget "))
        .contains("origin WeaveTarget loopFromStart(I)I");
  }

  @Test
  void aConstructorsExitHookSeesTheInitialisedObjectAndItsFields() throws Throwable {
    Class<?> type =
        wovenType(
            (name, descriptor, access) ->
                name.equals("<init>")
                    ? MethodAdvice.exit(
                            Hook.of(
                                RECORDER,
                                "constructed",
                                "(Ljava/lang/Object;Ljava/lang/String;)V",
                                HookArg.THIS,
                                HookArg.field("label")))
                        .build()
                    : null);

    type.getConstructor().newInstance();
    type.getConstructor(String.class).newInstance("named");
    assertThatThrownBy(() -> type.getConstructor(String.class).newInstance((Object) null))
        .hasCauseInstanceOf(IllegalArgumentException.class);
    assertThat(Recorder.CALLS)
        .containsExactly("constructed label=plain", "constructed label=named");
  }

  @Test
  void whatCannotBeWovenSafelyIsLeftAndSaysWhy() throws IOException {
    Hook receiver =
        Hook.of(RECORDER, "enterObject", "(Ljava/lang/Object;)Ljava/lang/Object;", HookArg.THIS);
    ClassWeaver.Result staticReceiver =
        ClassWeaver.weave(targetClassFile(), only("loopFromStart", enterOnly(receiver)), ERRORS);
    ClassWeaver.Result constructorEnter =
        ClassWeaver.weave(targetClassFile(), only("<init>", enterOnly(receiver)), ERRORS);
    ClassWeaver.Result wrongType =
        ClassWeaver.weave(
            targetClassFile(),
            only(
                "add",
                enterOnly(
                    Hook.of(
                        RECORDER,
                        "enterAdd",
                        "(Ljava/lang/Object;II)J",
                        HookArg.THIS,
                        HookArg.argument(0),
                        HookArg.field("total")))),
            ERRORS);
    ClassWeaver.Result noSuchField =
        ClassWeaver.weave(
            targetClassFile(),
            only(
                "fail",
                MethodAdvice.exit(
                        Hook.of(
                            RECORDER,
                            "exitAny",
                            "(Ljava/lang/Object;Ljava/lang/Throwable;)V",
                            HookArg.field("missing"),
                            HookArg.THROWN))
                    .build()),
            ERRORS);

    assertThat(staticReceiver.classFile()).isNull();
    assertThat(staticReceiver.refused()).singleElement().asString().contains("static method");
    assertThat(constructorEnter.refused()).hasSize(2).allMatch(r -> r.contains("constructor"));
    assertThat(wrongType.refused()).singleElement().asString().contains("parameter 2 is I");
    assertThat(noSuchField.refused()).singleElement().asString().contains("field missing");
  }

  @Test
  void advicesThatCannotWorkAreRejectedWhenBuilt() {
    Hook voidEnter =
        Hook.of(
            RECORDER,
            "origin",
            "(Ljava/lang/Class;Ljava/lang/String;)V",
            HookArg.ORIGIN_TYPE,
            HookArg.ORIGIN_METHOD);
    assertThatThrownBy(() -> MethodAdvice.enter(voidEnter).skip(Skip.ON_NON_DEFAULT).build())
        .hasMessageContaining("returns a value");
    assertThatThrownBy(
            () ->
                MethodAdvice.exit(voidEnter)
                    .exitResult(MethodAdvice.ExitResult.REPLACES_THROWN)
                    .build())
        .hasMessageContaining("returns Throwable");
    assertThatThrownBy(() -> Hook.of(RECORDER, "origin", "(Ljava/lang/Class;)V"))
        .hasMessageContaining("takes 1 parameters but 0 arguments");
    assertThatThrownBy(() -> Hook.of("a.b.C", "m", "()V")).hasMessageContaining("internal name");
  }

  private static MethodAdvice enterOnly(Hook hook) {
    return MethodAdvice.enter(hook).build();
  }

  private static ClassWeaver.Plan only(String method, MethodAdvice advice) {
    return (name, descriptor, access) -> name.equals(method) ? advice : null;
  }

  private static Object newTarget(String method, MethodAdvice advice) throws Exception {
    return wovenType(only(method, advice)).getConstructor().newInstance();
  }

  private static Class<?> wovenType(ClassWeaver.Plan plan) throws IOException {
    ClassWeaver.Result result = ClassWeaver.weave(targetClassFile(), plan, ERRORS);
    assertThat(result.refused()).isEmpty();
    assertThat(result.classFile()).isNotNull();
    return define(result.classFile());
  }

  private static Object call(Object target, String name, Object... args) throws Throwable {
    for (Method m : target.getClass().getMethods()) {
      if (m.getName().equals(name) && m.getParameterCount() == args.length) {
        try {
          return m.invoke(target, args);
        } catch (InvocationTargetException e) {
          throw e.getCause();
        }
      }
    }
    throw new AssertionError("no method " + name);
  }

  static byte[] targetClassFile() throws IOException {
    try (InputStream in = WeaveTarget.class.getResourceAsStream("WeaveTarget.class")) {
      return in.readAllBytes();
    }
  }

  /** Defines the woven target in a loader of its own; everything else comes from the test's. */
  private static Class<?> define(byte[] classFile) {
    return new ClassLoader(ClassWeaverTest.class.getClassLoader()) {
      Class<?> defineIt() {
        Class<?> c = defineClass(TARGET.replace('/', '.'), classFile, 0, classFile.length);
        // Linking verifies every method now, not at its first call.
        c.getDeclaredMethods();
        return c;
      }
    }.defineIt();
  }
}
