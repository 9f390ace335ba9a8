package io.faultline.agent.instrumentation;

import java.util.ArrayList;
import java.util.List;

/** The instrumentation modules the agent ships: those on the test class path but the fixtures. */
final class ShippedModules {

  private ShippedModules() {}

  static List<InstrumentationModule> in(ClassLoader loader) {
    List<String> failures = new ArrayList<>();
    List<InstrumentationModule> all = InstrumentationInstaller.discover(loader, failures);
    if (!failures.isEmpty()) {
      throw new AssertionError(String.join("\n", failures));
    }
    return all.stream()
        .filter(m -> !m.getClass().getName().startsWith("io.faultline.agent.fixture."))
        .toList();
  }
}
