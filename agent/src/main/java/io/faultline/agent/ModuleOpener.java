package io.faultline.agent;

import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Set;

/**
 * Opens {@code java.base/sun.nio.ch} to the agent's module, so core's {@code SocketFds.ofChannel}
 * can read a {@code SocketChannel}'s file descriptor without the application adding {@code
 * --add-opens}.
 */
final class ModuleOpener {

  private ModuleOpener() {}

  /** Opens the package; returns null on success or the reason it could not. */
  static String openSocketChannelInternals(Instrumentation instrumentation, Module agentModule) {
    Module base = Object.class.getModule();
    if (base.isOpen("sun.nio.ch", agentModule)) {
      return null;
    }
    if (!instrumentation.isModifiableModule(base)) {
      return "java.base cannot be modified by this JVM";
    }
    instrumentation.redefineModule(
        base, Set.of(), Map.of(), Map.of("sun.nio.ch", Set.of(agentModule)), Set.of(), Map.of());
    return base.isOpen("sun.nio.ch", agentModule) ? null : "redefineModule had no effect";
  }
}
