package io.faultline.agent;

import io.faultline.core.metrics.MeterCatalog;
import io.faultline.core.metrics.MeterDoc;
import java.util.List;

/** The meters of the agent itself. */
public final class AgentMeters implements MeterCatalog {

  /** Errors suppressed inside advice or while weaving, per module. */
  public static final MeterDoc AGENT_ERRORS =
      new MeterDoc(
          "faultline.agent.errors",
          MeterDoc.Type.COUNTER,
          "errors",
          List.of("module"),
          "Errors Faultline caught in its own instrumentation (advice that threw, a weave that"
              + " failed) instead of letting them reach the application; non-zero is a Faultline"
              + " bug or an unsupported library version.",
          AgentConfigKeys.INSTRUMENTATION);

  /** Whether each module is active. */
  public static final MeterDoc MODULE_ACTIVE =
      new MeterDoc(
          "faultline.agent.module.active",
          MeterDoc.Type.GAUGE,
          "modules",
          List.of("module"),
          "1 while the instrumentation module is active, 0 once it is off (by configuration,"
              + " because its target does not fit, or after too many errors).",
          AgentConfigKeys.INSTRUMENTATION);

  /** Time application threads spent inside Faultline while it started. */
  public static final MeterDoc STARTUP_BLOCKED =
      new MeterDoc(
          "faultline.agent.startup.blocked",
          MeterDoc.Type.GAUGE,
          "seconds",
          List.of(),
          "Total time application threads spent inside Faultline's class-file transformer while"
              + " the agent was starting (they never wait for its installation); above 0.1 s the"
              + " agent also says so on stderr.",
          AgentConfigKeys.INSTRUMENTATION);

  /** Classes that loaded before the instrumentation was installed and were woven afterwards. */
  public static final MeterDoc STARTUP_LATE_WOVEN =
      new MeterDoc(
          "faultline.agent.startup.late.woven",
          MeterDoc.Type.GAUGE,
          "classes",
          List.of(),
          "Classes an instrumentation module targets that loaded while the agent was still"
              + " installing, and were woven by retransformation once it was done; calls made"
              + " before that were not observed.",
          AgentConfigKeys.INSTRUMENTATION);

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public AgentMeters() {}

  @Override
  public List<MeterDoc> meters() {
    return List.of(AGENT_ERRORS, MODULE_ACTIVE, STARTUP_BLOCKED, STARTUP_LATE_WOVEN);
  }
}
