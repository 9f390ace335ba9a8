package io.faultline.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every shipped module names the classes it may weave, or finds them in the class file without
 * holding back an application's own classes. One that kept the default ({@code every application
 * class}) would make {@code main} wait for the whole background installation, which is how a new
 * module once put a second back on the agent's start-up.
 */
class ModulesNameTheirTargetsTest {

  private static final ClassLoader APP = ModulesNameTheirTargetsTest.class.getClassLoader();

  @Test
  void noShippedModuleHoldsBackAnApplicationsOwnClasses() {
    List<InstrumentationModule> shipped = ShippedModules.in(APP);
    DeferredTransformer.Gate gate = DeferredTransformer.Gate.of(shipped);

    assertThat(shipped).hasSizeGreaterThanOrEqualTo(8);
    for (String appClass :
        List.of("com/example/Main", "org/slf4j/LoggerFactory", "org/apache/kafka/common/Node")) {
      assertThat(gate.modulesFor(appClass, APP, new byte[0]))
          .as("modules that would make %s wait for the agent's start", appClass)
          .isEmpty();
    }
  }

  @Test
  void aModuleThatFindsItsTargetsInTheClassFileLetsThemThrough() {
    List<InstrumentationModule> unnamed =
        ShippedModules.in(APP).stream().filter(m -> m.targetNames().isEmpty()).toList();
    DeferredTransformer.Gate gate = DeferredTransformer.Gate.of(unnamed);
    byte[] annotated =
        "...Lorg/springframework/transaction/annotation/Transactional;..."
            .getBytes(StandardCharsets.US_ASCII);

    assertThat(unnamed).extracting(InstrumentationModule::name).isNotEmpty();
    assertThat(gate.modulesFor("com/example/OrderService", APP, annotated)).isNotEmpty();
    assertThat(gate.modulesFor("com/example/OrderService", APP, new byte[0])).isEmpty();
  }

  @Test
  void everyModuleThatNamesTargetsNamesExactlyTheTypesItWeaves() {
    int named = 0;
    for (InstrumentationModule m : ShippedModules.in(APP)) {
      List<String> woven = new ArrayList<>();
      for (TypeInstrumentation type : m.types()) {
        woven.add(type.typeName());
      }
      if (m.targetNames().isEmpty()) {
        assertThat(woven)
            .as("%s names no targets: one of its types is found in the class file", m.name())
            .containsNull();
        continue;
      }
      named += woven.size();
      assertThat(m.targetNames())
          .as("%s's targets, which the start gate lets through by name", m.name())
          .containsExactlyInAnyOrderElementsOf(woven);
      DeferredTransformer.Gate gate = DeferredTransformer.Gate.of(List.of(m));
      ClassLoader loader = m.bootstrapClasses().isEmpty() ? APP : null;
      for (String name : woven) {
        assertThat(gate.modulesFor(name.replace('.', '/'), loader, new byte[0]))
            .as("%s may weave its target %s when it loads during the start", m.name(), name)
            .containsExactly(m);
      }
    }
    assertThat(named).as("named targets checked").isGreaterThanOrEqualTo(10);
  }
}
