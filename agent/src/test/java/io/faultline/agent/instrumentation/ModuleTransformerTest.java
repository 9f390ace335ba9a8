package io.faultline.agent.instrumentation;

import static io.faultline.agent.instrumentation.MethodMatcher.named;
import static io.faultline.agent.instrumentation.MethodMatcher.takesArguments;
import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding;
import io.faultline.agent.weave.ErrorHook;
import io.faultline.agent.weave.Recorder;
import io.faultline.agent.weave.WeaveTarget;
import io.faultline.core.config.FaultlineConfig;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ModuleTransformerTest {

  private static final String TARGET = "io/faultline/agent/weave/WeaveTarget";
  private static final ErrorHook ERRORS =
      new ErrorHook("io/faultline/agent/weave/Recorder", "suppressed", "m");

  @Test
  void weavesTheNamedTypeAndRecordsIt() throws Exception {
    InstalledModule entry =
        entry(
            TypeInstrumentation.forType(
                WeaveTarget.class.getName(),
                AdviceBinding.of(
                    named("add").and(takesArguments(2)),
                    "io.faultline.agent.weave.TestAdvice$Add")));
    ModuleTransformer transformer = transformer(entry);

    byte[] woven = transform(transformer, TARGET);
    byte[] other = transform(transformer, "io/faultline/agent/weave/Recorder");

    assertThat(woven).isNotNull();
    assertThat(other).isNull();
    assertThat(entry.wovenTypes()).containsExactly(WeaveTarget.class.getName());
    assertThat(entry.moduleSwitch().active()).isTrue();
    assertThat(transformer.wouldWeave(TARGET, classFile(TARGET))).isTrue();
  }

  @Test
  void aRequiredMethodTheTypeLacksTurnsTheModuleOffAndLeavesTheClass() throws Exception {
    InstalledModule entry =
        entry(
            TypeInstrumentation.forType(
                WeaveTarget.class.getName(),
                AdviceBinding.of(named("add"), "io.faultline.agent.weave.TestAdvice$Add"),
                AdviceBinding.of(named("farewell"), "io.faultline.agent.weave.TestAdvice$Add")));

    byte[] woven = transform(transformer(entry), TARGET);

    assertThat(woven).isNull();
    assertThat(entry.moduleSwitch().state()).isEqualTo(ModuleSwitch.State.INCOMPATIBLE);
    assertThat(entry.moduleSwitch().reason()).contains("has no method matching named farewell");
  }

  @Test
  void adviceThatDoesNotFitTheMethodIsAWeaveFailure() throws Exception {
    InstalledModule entry =
        entry(
            TypeInstrumentation.forType(
                WeaveTarget.class.getName(),
                AdviceBinding.of(named("fail"), "io.faultline.agent.weave.TestAdvice$Add")));

    byte[] woven = transform(transformer(entry), TARGET);

    assertThat(woven).isNull();
    assertThat(entry.moduleSwitch().state()).isEqualTo(ModuleSwitch.State.INCOMPATIBLE);
    assertThat(entry.errors()).isEqualTo(1);
    assertThat(entry.moduleSwitch().reason()).contains("weaving " + WeaveTarget.class.getName());
  }

  @Test
  void aMethodTwoBindingsMatchGetsBothAdvices() throws Exception {
    InstalledModule entry =
        entry(
            TypeInstrumentation.forType(
                WeaveTarget.class.getName(),
                AdviceBinding.of(named("add"), "io.faultline.agent.weave.TestAdvice$Add"),
                AdviceBinding.of(named("add"), "io.faultline.agent.weave.TestAdvice$Origins")));
    Recorder.CALLS.clear();

    byte[] woven = transform(transformer(entry), TARGET);
    Class<?> type = define(woven);
    Object target = type.getConstructor().newInstance();
    type.getMethod("add", int.class, int.class).invoke(target, 1, 2);

    assertThat(Recorder.CALLS)
        .containsExactly(
            "origin WeaveTarget add(II)I",
            "enter 1+2",
            "exit entered=42 returned=3 thrown=null",
            "origin WeaveTarget add(II)I");
  }

  @Test
  void aTypeFilterNeverSeesTheAgentsOwnClasses() throws Exception {
    boolean[] asked = new boolean[1];
    InstalledModule entry =
        entry(
            TypeInstrumentation.forTypes(
                type -> asked[0] = true,
                AdviceBinding.of(named("add"), "io.faultline.agent.weave.TestAdvice$Add")));

    assertThat(transform(transformer(entry), TARGET)).isNull();
    assertThat(asked[0]).isFalse();
  }

  @Test
  void anAdviceClassThatCannotBeInlinedIsRefusedWhenTheModuleIsInstalled() {
    InstalledModule entry =
        entry(
            TypeInstrumentation.forType(
                WeaveTarget.class.getName(),
                AdviceBinding.of(named("add"), "io.faultline.agent.weave.TestAdvice$UsesLambda")));

    // Whether advice uses only public members of the agent is checked by the build
    // (ShippedAdviceIsInlinableTest), not at every start.
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> transformer(entry))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("UsesLambda.enter uses invokedynamic");
  }

  private static ModuleTransformer transformer(InstalledModule entry) {
    return new ModuleTransformer(
        entry, ModuleTransformerTest.class.getClassLoader(), false, loader -> true, ERRORS);
  }

  private static byte[] transform(ModuleTransformer transformer, String internalName)
      throws IOException {
    return transformer.transform(
        null,
        ModuleTransformerTest.class.getClassLoader(),
        internalName,
        null,
        null,
        classFile(internalName));
  }

  private static byte[] classFile(String internalName) throws IOException {
    try (InputStream in =
        ModuleTransformerTest.class.getClassLoader().getResourceAsStream(internalName + ".class")) {
      return in.readAllBytes();
    }
  }

  private static Class<?> define(byte[] classFile) {
    return new ClassLoader(ModuleTransformerTest.class.getClassLoader()) {
      Class<?> defineIt() {
        return defineClass(WeaveTarget.class.getName(), classFile, 0, classFile.length);
      }
    }.defineIt();
  }

  /** A module of its own name (switches are per name and live for the JVM). */
  private static InstalledModule entry(TypeInstrumentation type) {
    String name = "test-" + UUID.randomUUID();
    return new InstalledModule(
        new InstrumentationModule() {
          @Override
          public String name() {
            return name;
          }

          @Override
          public String feature() {
            return "test.feature";
          }

          @Override
          public boolean enabledIn(FaultlineConfig config) {
            return true;
          }

          @Override
          public List<TypeInstrumentation> types() {
            return List.of(type);
          }
        });
  }
}
