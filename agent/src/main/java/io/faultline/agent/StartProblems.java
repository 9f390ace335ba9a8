package io.faultline.agent;

import io.faultline.core.config.ConfigProblem;
import io.faultline.core.config.ConfigSources;
import io.faultline.core.config.FaultlineConfig;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The configuration's problems and the modules that could not be created, printed to stderr once.
 * The agent's start thread parses the configuration beside {@code main}; a JVM whose {@code main}
 * ends before that thread got to it still shows what was wrong with its settings: the exit report
 * parses it then.
 */
final class StartProblems {

  private final ConfigSources sources;
  private final List<String> discoveryFailures;
  private final PrintStream err;
  private final AtomicBoolean printed = new AtomicBoolean();

  StartProblems(ConfigSources sources, List<String> discoveryFailures, PrintStream err) {
    this.sources = sources;
    this.discoveryFailures = List.copyOf(discoveryFailures);
    this.err = err;
  }

  /** The configuration, its problems printed unless the exit report printed them first. */
  FaultlineConfig load() {
    FaultlineConfig config = FaultlineConfig.builder().sources(sources).load();
    printOnce(config);
    return config;
  }

  /** At exit: prints the problems if {@link #load} never did. Never throws. */
  void printIfNotYet() {
    if (printed.get()) {
      return;
    }
    try {
      printOnce(FaultlineConfig.builder().sources(sources).load());
    } catch (Throwable e) {
      // A shutdown hook's exception would be a stack trace at the application's exit.
      if (printed.compareAndSet(false, true)) {
        err.println("faultline: the agent's configuration could not be read at exit: " + e);
      }
    }
  }

  private void printOnce(FaultlineConfig config) {
    if (!printed.compareAndSet(false, true)) {
      return;
    }
    for (ConfigProblem problem : config.problems()) {
      err.println(problem.toLine());
    }
    for (String failure : discoveryFailures) {
      err.println(failure);
    }
  }
}
