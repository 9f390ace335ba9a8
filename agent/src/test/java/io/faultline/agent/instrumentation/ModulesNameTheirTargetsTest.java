package io.faultline.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every shipped module names the classes it may weave. One that kept the default ({@code every
 * application class}) would make {@code main} wait for the whole background installation, which is
 * how a new module once put a second back on the agent's start-up.
 */
class ModulesNameTheirTargetsTest {

  private static final ClassLoader APP = ModulesNameTheirTargetsTest.class.getClassLoader();

  @Test
  void noShippedModuleHoldsBackAnApplicationsOwnClasses() {
    List<InstrumentationModule> shipped = ShippedModules.in(APP);

    assertThat(shipped).hasSizeGreaterThanOrEqualTo(8);
    for (String appClass : List.of("com.example.Main", "org.slf4j.LoggerFactory")) {
      assertThat(shipped)
          .as("modules that would make %s wait for the agent's start", appClass)
          .filteredOn(m -> m.mayWeave(appClass, APP, new byte[0]))
          .isEmpty();
    }
  }

  @Test
  void everyShippedModuleLetsItsOwnNamedTargetsThrough() {
    List<InstrumentationModule> shipped =
        ShippedModules.in(APP).stream().filter(m -> m.bootstrapClasses().isEmpty()).toList();
    int named = 0;
    for (InstrumentationModule m : shipped) {
      for (TypeInstrumentation type : m.types()) {
        if (type.typeName() == null) {
          continue;
        }
        named++;
        String name = type.typeName();
        assertThat(m.mayWeave(name, APP, new byte[0]))
            .as("%s may weave its target %s when it loads during the start", m.name(), name)
            .isTrue();
        assertThat(m.mayMatch(name.replace('.', '/'), APP, new byte[0]))
            .as("%s lets its target %s through to its transformer", m.name(), name)
            .isTrue();
      }
    }
    assertThat(named).as("named targets checked").isGreaterThanOrEqualTo(10);
  }
}
