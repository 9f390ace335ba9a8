package io.faultline.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AgentErrorsTest {

  @Test
  void adviceErrorsAreCountedAndTurnTheModuleOffAtTheLimit() {
    AgentErrors.setLimit(3);
    try {
      String module = "unit-advice-errors";
      AgentErrors.suppressed(new IllegalStateException("1"), module);
      AgentErrors.suppressed(new IllegalStateException("2"), module);
      assertThat(ModuleSwitch.of(module).active()).isTrue();
      AgentErrors.suppressed(new IllegalStateException("3"), module);
      assertThat(AgentErrors.count(module)).isEqualTo(3);
      assertThat(ModuleSwitch.of(module).active()).isFalse();
      assertThat(ModuleSwitch.of(module).state()).isEqualTo(ModuleSwitch.State.FAILED);
      assertThat(ModuleSwitch.of(module).reason())
          .contains("3 errors", "java.lang.IllegalStateException: 3");
      assertThat(AgentErrors.exitReport()).contains("unit-advice-errors=3");
    } finally {
      AgentErrors.setLimit(20);
    }
  }

  @Test
  void aFailedWeaveTurnsTheModuleOffAtOnceAndKeepsTheFirstReason() {
    String module = "unit-weave";
    AgentErrors.weaveFailed(module, "a.B", new IllegalStateException("no fit"));
    AgentErrors.weaveFailed(module, "a.C", new IllegalStateException("later"));
    ModuleSwitch moduleSwitch = ModuleSwitch.of(module);
    assertThat(moduleSwitch.state()).isEqualTo(ModuleSwitch.State.INCOMPATIBLE);
    assertThat(moduleSwitch.reason())
        .isEqualTo("weaving a.B failed: java.lang.IllegalStateException: no fit");
    assertThat(AgentErrors.count(module)).isEqualTo(2);
  }

  @Test
  void nothingThrowsEvenForNullInput() {
    AgentErrors.suppressed(null, null);
    AgentErrors.weaveFailed("unit-null", null, new RuntimeException());
    assertThat(AgentErrors.count("null")).isPositive();
  }

  @Test
  void switchIsOnePerNameAndCannotBeTurnedOnAgain() {
    ModuleSwitch a = ModuleSwitch.of("unit-switch");
    assertThat(ModuleSwitch.of("unit-switch")).isSameAs(a);
    assertThat(a.turnOff(ModuleSwitch.State.OFF_BY_CONFIG, "off")).isTrue();
    assertThat(a.turnOff(ModuleSwitch.State.FAILED, "again")).isFalse();
    assertThat(a.state()).isEqualTo(ModuleSwitch.State.OFF_BY_CONFIG);
  }
}
