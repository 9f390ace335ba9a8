package io.faultline.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ClassWeaverTest {

  private static final String TARGET = "io.faultline.agent.weave.WeaveTarget";
  private static final ErrorHook ERRORS =
      new ErrorHook("io/faultline/agent/weave/Recorder", "suppressed", "test-module");

  @BeforeEach
  void reset() {
    Recorder.reset();
  }

  @Test
  void enterAndExitSeeTheArgumentsTheEnterResultAndTheReturnValue() throws Throwable {
    Object target = newTarget("add", advice(TestAdvice.Add.class));

    assertThat(call(target, "add", 2, 3)).isEqualTo(5);
    assertThat(Recorder.CALLS)
        .containsExactly("enter 2+3", "exit entered=42 returned=5 thrown=null");
  }

  @Test
  void adviceThatThrowsIsReportedAndTheMethodRunsAsIfUnwoven() throws Throwable {
    Object target = newTarget("add", advice(TestAdvice.Add.class));
    Recorder.throwInAdvice = true;

    assertThat(call(target, "add", 2, 3)).isEqualTo(5);
    // The enter advice failed, so the exit advice sees the default, 0.
    assertThat(Recorder.CALLS)
        .containsExactly(
            "enter 2+3",
            "suppressed test-module advice failure",
            "exit entered=0 returned=5 thrown=null",
            "suppressed test-module advice failure");
  }

  @Test
  void anErrorHookTheClassCannotSeeIsDropped() throws Throwable {
    byte[] woven =
        ClassWeaver.weave(
                targetClassFile(),
                only("add", advice(TestAdvice.Add.class)),
                new ErrorHook("no/such/Errors", "suppressed", "m"))
            .classFile();
    Object target = define(woven).getConstructor().newInstance();
    Recorder.throwInAdvice = true;

    assertThat(call(target, "add", 4, 5)).isEqualTo(9);
    assertThat(Recorder.CALLS)
        .containsExactly("enter 4+5", "exit entered=0 returned=9 thrown=null");
  }

  @Test
  void anExceptionReachesTheExitAdviceAndThenTheCaller() throws Throwable {
    Object target = newTarget("fail", advice(TestAdvice.SeesThrown.class));

    assertThatThrownBy(() -> call(target, "fail", "boom"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("boom");
    assertThat(Recorder.CALLS)
        .containsExactly(
            "exit fail(Ljava/lang/String;)V thrown=java.lang.IllegalStateException: boom");
  }

  @Test
  void theMethodsOwnHandlersKeepPrecedenceOverTheCatchAll() throws Throwable {
    Object target = newTarget("caught", advice(TestAdvice.SeesReturned.class));

    assertThat(call(target, "caught", (Object) null)).isEqualTo("caught");
    assertThat(call(target, "caught", "x")).isEqualTo("x");
    assertThat(Recorder.CALLS)
        .containsExactly("exit returned=caught thrown=null", "exit returned=x thrown=null");
  }

  @Test
  void exitAdviceCanReplaceWhatIsThrownOrSwallowIt() throws Throwable {
    MethodAdvice replacing = advice(TestAdvice.ReplacesThrown.class);
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
    Object target = newTarget("sync", advice(TestAdvice.SkipsOnInstance.class));

    Recorder.enterResult = "not a skip";
    assertThat(call(target, "sync", "body ran")).isEqualTo("body ran");
    Recorder.enterResult = new Recorder.Skipped();
    // Skipped: the body's throw for null never happens, the default is returned.
    assertThat(call(target, "sync", (Object) null)).isNull();
    assertThat(Recorder.CALLS)
        .hasSize(4)
        .startsWith("enter", "exit entered=not a skip returned=body ran", "enter");
    assertThat(Recorder.CALLS.get(3)).matches("exit entered=.*Skipped@.* returned=null");
  }

  @Test
  void aNonDefaultEnterResultSkipsWithoutExitAdvice() throws Throwable {
    Object target = newTarget("canConnect", advice(TestAdvice.SkipsOnTrue.class));

    assertThat(call(target, "canConnect", "n1", 1L)).isEqualTo(true);
    Recorder.enterResult = "skip";
    assertThat(call(target, "canConnect", "n1", 1L)).isEqualTo(false);
  }

  @Test
  void exitAdviceCanReplaceAPrimitiveReturnValue() throws Throwable {
    Object connecting = newTarget("canConnect", advice(TestAdvice.RefusesConnect.class));
    Object delaying = newTarget("delay", advice(TestAdvice.LongerDelay.class));
    Object halving = newTarget("half", advice(TestAdvice.HalfPlusOne.class));

    assertThat(call(connecting, "canConnect", "n1", 7L)).isEqualTo(false);
    assertThat(call(delaying, "delay", "n2", 7L)).isEqualTo(100L);
    assertThat(call(halving, "half", 3.0)).isEqualTo(2.5);
    // Advice that fails before its assignment leaves the method's own value.
    Recorder.throwInAdvice = true;
    assertThat(call(connecting, "canConnect", "n1", 7L)).isEqualTo(true);
  }

  @Test
  void enterAdviceCanReplaceAnArgumentTheBodySees() throws Throwable {
    Object target = newTarget("addLong", advice(TestAdvice.TenfoldArgument.class));

    assertThat(call(target, "addLong", 5L, 1)).isEqualTo(51L);
    assertThat(call(target, "addLong", -5L, 1)).isEqualTo(-1L);
    // Advice that fails before its assignment leaves the caller's argument.
    Recorder.throwInAdvice = true;
    assertThat(call(target, "addLong", 5L, 1)).isEqualTo(6L);
  }

  @Test
  void anArgumentIsAssignedOnlyOnEntryAndOnlyWithItsOwnType() throws IOException {
    ClassWeaver.Result onExit =
        ClassWeaver.weave(
            targetClassFile(),
            only("addLong", advice(TestAdvice.AssignsArgumentOnExit.class)),
            ERRORS);
    ClassWeaver.Result otherType =
        ClassWeaver.weave(
            targetClassFile(),
            only("addLong", advice(TestAdvice.AssignsArgumentOfAnotherType.class)),
            ERRORS);

    assertThat(onExit.classFile()).isNull();
    assertThat(onExit.refused()).singleElement().asString().contains("on exit");
    assertThat(otherType.classFile()).isNull();
    assertThat(otherType.refused()).singleElement().asString().contains("must be J to be assigned");
  }

  @Test
  void wideValuesAndSeveralReturnsAreHandled() throws Throwable {
    Object target = newTarget("addLong", advice(TestAdvice.WideValues.class));

    assertThat(call(target, "addLong", -5L, 1)).isEqualTo(-1L);
    assertThat(call(target, "addLong", 5L, 1)).isEqualTo(6L);
    assertThat(Recorder.CALLS).containsExactly("exit a=-5 returned=-1", "exit a=5 returned=6");
  }

  @Test
  void aLoopAtTheFirstInstructionAndASwitchKeepTheirFrames() throws Throwable {
    MethodAdvice origins = advice(TestAdvice.Origins.class);
    Set<String> methods = Set.of("loopFromStart", "switcher", "count");
    Class<?> type = wovenType(m -> methods.contains(m.name()) ? origins : null);
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
  void adviceWithItsOwnLoopsHandlersAndLocalsIsInlinedWhole() throws Throwable {
    Object target = newTarget("count", advice(TestAdvice.BusyAdvice.class));

    call(target, "count", 4);
    // 0 + 100 (the advice's own handler) + 2 + 3
    assertThat(Recorder.CALLS).containsExactly("busy sum=105");
  }

  @Test
  void aConstructorsExitAdviceSeesTheInitialisedObjectAndItsFields() throws Throwable {
    MethodAdvice constructed = advice(TestAdvice.Constructed.class);
    Class<?> type = wovenType(m -> m.name().equals("<init>") ? constructed : null);

    type.getConstructor().newInstance();
    type.getConstructor(String.class).newInstance("named");
    assertThatThrownBy(() -> type.getConstructor(String.class).newInstance((Object) null))
        .hasCauseInstanceOf(IllegalArgumentException.class);
    assertThat(Recorder.CALLS)
        .containsExactly("constructed label=plain", "constructed label=named");
  }

  @Test
  void whatCannotBeWovenSafelyIsLeftAndSaysWhy() throws IOException {
    ClassWeaver.Result staticReceiver =
        ClassWeaver.weave(
            targetClassFile(),
            only("loopFromStart", advice(TestAdvice.StaticReceiver.class)),
            ERRORS);
    ClassWeaver.Result constructorEnter =
        ClassWeaver.weave(
            targetClassFile(), only("<init>", advice(TestAdvice.StaticReceiver.class)), ERRORS);
    ClassWeaver.Result wrongType =
        ClassWeaver.weave(
            targetClassFile(), only("add", advice(TestAdvice.WrongFieldType.class)), ERRORS);
    ClassWeaver.Result noSuchField =
        ClassWeaver.weave(
            targetClassFile(), only("fail", advice(TestAdvice.MissingField.class)), ERRORS);

    assertThat(staticReceiver.classFile()).isNull();
    assertThat(staticReceiver.refused()).singleElement().asString().contains("static method");
    assertThat(constructorEnter.refused()).hasSize(2).allMatch(r -> r.contains("constructor"));
    assertThat(wrongType.refused()).singleElement().asString().contains("parameter 0 is I");
    assertThat(noSuchField.refused()).singleElement().asString().contains("field missing");
  }

  @Test
  void wideArgumentsLocalsAndASynchronizedMethodSkippedOrNot() throws Throwable {
    Object target = newTarget("mixed", advice(TestAdvice.WideAdvice.class));

    assertThat(call(target, "mixed", 2, 10L, 3.9, "four", 5L)).isEqualTo(2L + 10 + 3 + 4 + 5);
    // e == 99 makes the enter advice skip the body; the exit advice then replaces the default.
    assertThat(call(target, "mixed", 2, 10L, 3.9, "four", 99L)).isEqualTo(-7L);
    assertThat(Recorder.CALLS)
        .containsExactly(
            "enter c=3.9 d=four e=5 seen=3",
            "exit entered=0 b=10 returned=24",
            "enter c=3.9 d=four e=99 seen=3",
            "exit entered=7 b=10 returned=0");
  }

  @Test
  void finallyBlocksAndNestedHandlersKeepTheirMeaning() throws Throwable {
    MethodAdvice seesReturned = advice(TestAdvice.SeesReturned.class);
    MethodAdvice seesThrown = advice(TestAdvice.SeesThrown.class);
    Class<?> type =
        wovenType(
            m ->
                m.name().equals("finallyCounts")
                    ? seesThrown
                    : m.name().equals("rethrows") ? seesReturned : null);
    Object target = type.getConstructor().newInstance();

    assertThat(call(target, "finallyCounts", false)).isEqualTo(1);
    assertThatThrownBy(() -> call(target, "finallyCounts", true))
        .isInstanceOf(IllegalStateException.class);
    assertThat(call(target, "rethrows", " x ")).isEqualTo("x");
    assertThatThrownBy(() -> call(target, "rethrows", (Object) null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("wrapped");
    java.lang.reflect.Field total = type.getDeclaredField("total");
    total.setAccessible(true);
    // The finally block ran on both ways out.
    assertThat(total.getLong(target)).isEqualTo(20L);
    assertThat(Recorder.CALLS)
        .containsExactly(
            "exit finallyCounts(Z)I thrown=null",
            "exit finallyCounts(Z)I thrown=java.lang.IllegalStateException: in try",
            "exit returned=x thrown=null",
            "exit returned=null thrown=java.lang.IllegalArgumentException: wrapped");
  }

  @Test
  void adviceThatCouldNotBeInlinedIsRejectedWhenRead() {
    assertThatThrownBy(() -> advice(TestAdvice.UsesLambda.class))
        .hasMessageContaining("UsesLambda.enter uses invokedynamic");
    assertThatThrownBy(() -> advice(TestAdvice.CallsPrivateHelper.class))
        .hasMessageContaining("calls helper of its own class, which is not public");
    assertThatThrownBy(() -> advice(TestAdvice.UnboundParameter.class))
        .hasMessageContaining("parameter 0 needs exactly one @Advice annotation");
    assertThatThrownBy(() -> advice(TestAdvice.VoidEnterSkips.class))
        .hasMessageContaining("returns a value");
    assertThatThrownBy(() -> advice(Recorder.class))
        .hasMessageContaining("has no @OnMethodEnter or @OnMethodExit method");
  }

  @Test
  void adviceThatWouldCallAPackagePrivateMemberOnceInlinedIsRejected() {
    MethodAdvice advice = advice(TestAdvice.CallsPackagePrivate.class);

    assertThatThrownBy(
            () ->
                AdviceReader.requirePublicReferences(
                    advice, "io/faultline/", ClassWeaverTest::testClassFile))
        .hasMessageContaining("uses io.faultline.agent.weave.Recorder.reset, which is not public");
    AdviceReader.requirePublicReferences(
        advice(TestAdvice.Add.class), "io/faultline/", ClassWeaverTest::testClassFile);
  }

  private static byte[] testClassFile(String internalName) {
    try (InputStream in =
        ClassWeaverTest.class.getClassLoader().getResourceAsStream(internalName + ".class")) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static MethodAdvice advice(Class<?> adviceClass) {
    try (InputStream in =
        adviceClass.getResourceAsStream(adviceClass.getName().replaceAll(".*\\.", "") + ".class")) {
      return AdviceReader.read(in.readAllBytes());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static ClassWeaver.Plan only(String method, MethodAdvice advice) {
    return m -> m.name().equals(method) ? advice : null;
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

  /** Kept in the class file, not at run time: the outline must see both retentions. */
  @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.CLASS)
  @interface InClassFileOnly {}

  @Deprecated
  @InClassFileOnly
  static class Annotated {
    @Deprecated
    void visible() {}

    @InClassFileOnly
    static void invisible() {}

    void plain() {}
  }

  @Test
  void theOutlineNamesTheClassesAndTheMethodsAnnotationsOfBothRetentions() throws IOException {
    byte[] classFile;
    try (InputStream in = Annotated.class.getResourceAsStream("ClassWeaverTest$Annotated.class")) {
      classFile = in.readAllBytes();
    }

    ClassWeaver.Outline outline = ClassWeaver.outline(classFile);

    String inClassFileOnly = "Lio/faultline/agent/weave/ClassWeaverTest$InClassFileOnly;";
    assertThat(outline.type().internalName())
        .isEqualTo("io/faultline/agent/weave/ClassWeaverTest$Annotated");
    assertThat(outline.type().annotations())
        .containsExactly("Ljava/lang/Deprecated;", inClassFileOnly);
    assertThat(outline.methods())
        .extracting(m -> m.name() + m.descriptor() + " " + m.annotations())
        .containsExactly(
            "<init>()V []",
            "visible()V [Ljava/lang/Deprecated;]",
            "invisible()V [" + inClassFileOnly + "]",
            "plain()V []");
    assertThat(outline.methods()).allMatch(m -> m.type() == outline.type());
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
        Class<?> c = defineClass(TARGET, classFile, 0, classFile.length);
        // Linking verifies every method now, not at its first call.
        c.getDeclaredMethods();
        return c;
      }
    }.defineIt();
  }
}
