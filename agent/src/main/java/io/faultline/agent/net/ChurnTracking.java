package io.faultline.agent.net;

import io.faultline.agent.AgentRuntime;
import io.faultline.agent.instrumentation.ModuleSwitch;
import io.faultline.bootstrap.ConnectHook;
import io.faultline.core.Loggers;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.host.PortBudget;
import io.faultline.core.host.ProcFs;
import io.faultline.core.net.churn.ChurnKeys;
import io.faultline.core.net.churn.ChurnMetrics;
import io.faultline.core.net.churn.ChurnMonitor;
import io.faultline.core.net.churn.ConnectChurn;
import java.lang.System.Logger.Level;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Connection-churn tracking in the agent: points {@link ConnectHook} at a {@link ConnectChurn} (the
 * woven {@code java.base} connects then count there), and evaluates a {@link ChurnMonitor} against
 * this network namespace's port budget ({@code /proc} of the JVM) every {@code net.churn.interval}
 * on the agent's scheduler, publishing {@link ChurnMetrics}.
 */
public final class ChurnTracking {

  private static final System.Logger LOG = Loggers.get(ChurnTracking.class.getName());

  private ChurnTracking() {}

  /**
   * Starts tracking in {@code runtime} when {@code net.churn} is on and {@link ConnectChurnModule}
   * was woven (its bridge is on the bootstrap class path); otherwise does nothing. Call once, after
   * the instrumentation is installed.
   */
  public static void start(AgentRuntime runtime) {
    FaultlineConfig config = runtime.config();
    ModuleSwitch moduleSwitch = ConnectChurnModule.SWITCH;
    boolean installed =
        runtime.modules().stream().anyMatch(m -> m.name().equals(ConnectChurnModule.NAME));
    if (!config.isFeatureEnabled(ChurnKeys.FEATURE) || !installed || !moduleSwitch.active()) {
      return;
    }
    ConnectChurn churn = new ConnectChurn(config.get(ChurnKeys.MAX_DESTINATIONS));
    ChurnMonitor monitor =
        new ChurnMonitor(
            churn,
            () -> PortBudget.read(ProcFs.system()),
            runtime.findings(),
            ChurnMonitor.Settings.from(config),
            System::nanoTime);
    ChurnMetrics metrics = new ChurnMetrics(churn, monitor);
    Consumer<SocketAddress> counter =
        remote -> {
          // Checked here because advice in java.base cannot see the module's switch.
          if (moduleSwitch.active()) {
            churn.connected(remote);
          }
        };
    ConnectHook.callback = counter;
    runtime.lateMeters().whenReady(metrics::bindTo);
    Duration interval = config.get(ChurnKeys.INTERVAL);
    long millis =
        interval.toMillis() > 0
            ? interval.toMillis()
            : ChurnKeys.INTERVAL.defaultValue().toMillis();
    runtime
        .scheduler()
        .scheduleWithFixedDelay(() -> evaluate(monitor, metrics), 0, millis, TimeUnit.MILLISECONDS);
  }

  private static void evaluate(ChurnMonitor monitor, ChurnMetrics metrics) {
    try {
      monitor.evaluate();
      metrics.refresh();
    } catch (RuntimeException e) {
      // A failed round must not cancel the schedule; the next one tries again.
      LOG.log(Level.WARNING, "faultline: evaluating connection churn failed: " + e, e);
    }
  }
}
