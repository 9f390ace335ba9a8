package io.faultline.agent.instrumentation;

import java.util.List;

/** The instrumentation modules the agent ships: those on the test class path but the fixtures. */
final class ShippedModules {

  private ShippedModules() {}

  static List<InstrumentationModule> in(ClassLoader loader) {
    return InstrumentationInstaller.discover(loader).stream()
        .filter(m -> !m.getClass().getName().startsWith("io.faultline.agent.fixture."))
        .toList();
  }
}
