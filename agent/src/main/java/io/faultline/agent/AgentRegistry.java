package io.faultline.agent;

import io.faultline.agent.export.MicrometerInternalLogging;
import io.faultline.core.metrics.LateRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The agent's meter registry, created when the export starts (or earlier, by the first code that
 * asks for it): about seventy Micrometer classes stay out of the application's start-up. Meters
 * bound while the service starts wait in a queue ({@link LateRegistry}) and are registered, in the
 * order they came, by the thread that creates the registry; from then on every action runs at once
 * on its caller's thread.
 *
 * <p>Actions run outside this object's lock: an action may take its own component's lock, and that
 * component may hand over another action while holding it.
 */
final class AgentRegistry implements LateRegistry {

  private final PrintStream err;
  private final Object lock = new Object();
  private MeterRegistry registry;
  private List<Consumer<MeterRegistry>> pending = new ArrayList<>();
  // True while one thread works through the queue; actions handed over meanwhile join the queue,
  // so that none runs before those handed over earlier.
  private boolean draining;

  AgentRegistry(PrintStream err) {
    this.err = err;
  }

  @Override
  public void whenReady(Consumer<MeterRegistry> action) {
    MeterRegistry ready;
    synchronized (lock) {
      if (pending != null) {
        pending.add(action);
        return;
      }
      ready = registry;
    }
    run(action, ready);
  }

  /** The registry, created (and the queue worked through) by the first call. */
  MeterRegistry get() {
    MeterRegistry created;
    synchronized (lock) {
      if (registry == null) {
        // Before the first registry: see the class.
        MicrometerInternalLogging.useSystemLogger();
        registry = CumulativeMeterRegistry.create();
      }
      if (pending == null || draining) {
        return registry;
      }
      draining = true;
      created = registry;
    }
    while (true) {
      List<Consumer<MeterRegistry>> batch;
      synchronized (lock) {
        if (pending.isEmpty()) {
          pending = null;
          draining = false;
          return created;
        }
        batch = pending;
        pending = new ArrayList<>();
      }
      for (Consumer<MeterRegistry> action : batch) {
        run(action, created);
      }
    }
  }

  /** How many actions wait for the registry; 0 once it exists and they ran. */
  int waiting() {
    synchronized (lock) {
      return pending == null ? 0 : pending.size();
    }
  }

  private void run(Consumer<MeterRegistry> action, MeterRegistry on) {
    try {
      action.accept(on);
    } catch (RuntimeException | LinkageError e) {
      // One component's meters failing must not keep the others' out.
      err.println("faultline: registering meters failed, going on without them: " + e);
    }
  }
}
