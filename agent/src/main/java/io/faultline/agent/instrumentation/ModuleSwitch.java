package io.faultline.agent.instrumentation;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The on/off state of one instrumentation module, read by its advice on every call. Advice starts
 * with {@code if (!MyModule.SWITCH.active()) return;}: one volatile read, so a module that has been
 * turned off (by configuration, because its target does not fit, or after too many errors) costs
 * next to nothing and can no longer fail.
 *
 * <p>One switch per module name for the life of the JVM: {@link #of} returns the same instance
 * every time, so a module class can keep it in a {@code static final} field.
 */
public final class ModuleSwitch {

  /** Why a module is (not) running. */
  public enum State {
    /** Installed or waiting for its target classes; advice runs. */
    ACTIVE,
    /** Its feature is turned off in the configuration; never installed. */
    OFF_BY_CONFIG,
    /** Its target classes are not what it was written for (a method missing, a weave failed). */
    INCOMPATIBLE,
    /** Its advice kept throwing; turned off after the error limit. */
    FAILED
  }

  private static final Map<String, ModuleSwitch> SWITCHES = new ConcurrentHashMap<>();

  private final String module;
  private volatile boolean active = true;
  private volatile State state = State.ACTIVE;
  private volatile String reason = "";

  private ModuleSwitch(String module) {
    this.module = module;
  }

  /** The switch of {@code module}, created active on first use. */
  public static ModuleSwitch of(String module) {
    // get and putIfAbsent, not computeIfAbsent with a constructor reference: called from the
    // modules' class initialisers in premain, where a method reference is a class spun at run time.
    ModuleSwitch found = SWITCHES.get(Objects.requireNonNull(module, "module"));
    if (found != null) {
      return found;
    }
    ModuleSwitch created = new ModuleSwitch(module);
    found = SWITCHES.putIfAbsent(module, created);
    return found == null ? created : found;
  }

  /** Whether the module's advice should run. */
  public boolean active() {
    return active;
  }

  /** The module's name. */
  public String module() {
    return module;
  }

  /** The current state. */
  public State state() {
    return state;
  }

  /** Why it is off; empty while active. */
  public String reason() {
    return reason;
  }

  /**
   * Turns the module off for the rest of the run; the first reason is kept. Returns true when this
   * call turned it off.
   */
  public synchronized boolean turnOff(State newState, String why) {
    if (newState == State.ACTIVE) {
      throw new IllegalArgumentException("turnOff needs a state other than ACTIVE");
    }
    if (!active) {
      return false;
    }
    reason = Objects.requireNonNull(why, "why");
    state = newState;
    active = false;
    return true;
  }
}
