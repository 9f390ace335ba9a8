package io.faultline.agent.instrumentation;

import io.faultline.agent.weave.ErrorHook;

/**
 * A module's weave outside any JVM instrumentation, for tests that check what the weave makes of a
 * real library's (or the JDK's) class files.
 */
public final class ModuleWeaving {

  private final InstalledModule entry;
  private final ModuleTransformer transformer;

  private ModuleWeaving(InstalledModule entry, ModuleTransformer transformer) {
    this.entry = entry;
    this.transformer = transformer;
  }

  /** {@code module}, as the agent installs one whose targets are JDK classes. */
  public static ModuleWeaving bootstrap(InstrumentationModule module) {
    InstalledModule entry = new InstalledModule(module);
    return new ModuleWeaving(
        entry,
        new ModuleTransformer(
            entry,
            ModuleWeaving.class.getClassLoader(),
            true,
            loader -> false,
            new ErrorHook(
                BootstrapBridge.ERRORS_CLASS.replace('.', '/'), "suppressed", module.name())));
  }

  /** The woven class file, or null when the module leaves it. */
  public byte[] weave(String internalName, byte[] classFile) {
    return transformer.transform(null, null, internalName, null, null, classFile);
  }

  /** Why the module turned itself off, or null while it is active. */
  public String problem() {
    return entry.moduleSwitch().active() ? null : entry.moduleSwitch().reason();
  }
}
