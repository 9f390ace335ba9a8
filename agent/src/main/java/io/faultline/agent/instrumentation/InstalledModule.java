package io.faultline.agent.instrumentation;

import java.util.Set;
import java.util.TreeSet;

/** What became of one module in this JVM: its switch and the types woven so far. */
public final class InstalledModule {

  private final InstrumentationModule module;
  private final Set<String> wovenTypes = new TreeSet<>();

  InstalledModule(InstrumentationModule module) {
    this.module = module;
  }

  /** The module. */
  public InstrumentationModule module() {
    return module;
  }

  /** Its name. */
  public String name() {
    return module.name();
  }

  /** Its switch (state and reason). */
  public ModuleSwitch moduleSwitch() {
    return ModuleSwitch.of(module.name());
  }

  /** Names of the types its advice was woven into, sorted. */
  public synchronized Set<String> wovenTypes() {
    return new TreeSet<>(wovenTypes);
  }

  synchronized void woven(String type) {
    wovenTypes.add(type);
  }

  /** Errors counted against it. */
  public long errors() {
    return AgentErrors.count(module.name());
  }
}
