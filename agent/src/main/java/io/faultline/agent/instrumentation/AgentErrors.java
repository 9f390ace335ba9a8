package io.faultline.agent.instrumentation;

import io.faultline.core.Loggers;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the errors Faultline catches in its own instrumentation, per module, so none reaches the
 * application: throwables suppressed in advice ({@link #suppressed}, which the woven exception
 * handler calls) and failed weaves ({@link #weaveFailed}). The first error of each module is logged
 * with its stack trace, the rest only counted. A module whose advice fails {@link #limit()} times
 * is turned off through its {@link ModuleSwitch}; a failed weave turns it off at once, because a
 * half-woven module (enter advice without its exit) would keep wrong state.
 *
 * <p>Exported as {@code faultline.agent.errors{module}}. The integration suite fails a test whose
 * child JVM reported a non-zero total (the agent prints the totals at exit, see {@link
 * #exitReport()}).
 */
public final class AgentErrors {

  /**
   * Created at the first message: this class is used in {@code premain}, the logger need not be.
   */
  private static final class Log {
    static final System.Logger LOG = Loggers.get(AgentErrors.class.getName());
  }

  private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();
  private static volatile int limit = 20;

  private AgentErrors() {}

  /** Sets how many advice errors turn a module off (at least 1). */
  public static void setLimit(int errors) {
    limit = Math.max(1, errors);
  }

  /** How many advice errors turn a module off. */
  public static int limit() {
    return limit;
  }

  /**
   * Called by the exception handler woven after every advice: records {@code error}, thrown by the
   * advice of {@code module}, and never throws itself.
   */
  public static void suppressed(Throwable error, String module) {
    try {
      long count = record(module);
      if (count == 1) {
        Log.LOG.log(
            Level.WARNING,
            "faultline: instrumentation module "
                + module
                + " threw inside the application; suppressed and counted in"
                + " faultline.agent.errors (further errors of this module are only counted)",
            error);
      }
      if (count >= limit
          && ModuleSwitch.of(module)
              .turnOff(
                  ModuleSwitch.State.FAILED,
                  count + " errors in its advice, the last: " + describe(error))) {
        Log.LOG.log(
            Level.WARNING,
            "faultline: instrumentation module "
                + module
                + " turned itself off after "
                + count
                + " errors; the application is unaffected, Faultline's data from it stops");
      }
    } catch (Throwable ignored) {
      // The last line of defence: nothing here may reach the application.
    }
  }

  /** Records that weaving {@code type} for {@code module} failed, and turns the module off. */
  public static void weaveFailed(String module, String type, Throwable error) {
    try {
      long count = record(module);
      String why = "weaving " + type + " failed: " + describe(error);
      if (ModuleSwitch.of(module).turnOff(ModuleSwitch.State.INCOMPATIBLE, why) || count == 1) {
        Log.LOG.log(
            Level.WARNING,
            "faultline: instrumentation module "
                + module
                + " is off: "
                + why
                + ". The library version in use is probably not supported; the application runs"
                + " unchanged.",
            error);
      }
    } catch (Throwable ignored) {
      // see suppressed()
    }
  }

  private static long record(String module) {
    return COUNTS.computeIfAbsent(String.valueOf(module), m -> new AtomicLong()).incrementAndGet();
  }

  private static String describe(Throwable error) {
    String message = error.getMessage();
    return error.getClass().getName() + (message == null ? "" : ": " + message.strip());
  }

  /** Errors of {@code module} so far. */
  public static long count(String module) {
    AtomicLong count = COUNTS.get(module);
    return count == null ? 0 : count.get();
  }

  /** Errors of every module so far. */
  public static long total() {
    return COUNTS.values().stream().mapToLong(AtomicLong::get).sum();
  }

  /** Module → errors, sorted, for the modules that had any. */
  public static Map<String, Long> snapshot() {
    Map<String, Long> out = new TreeMap<>();
    COUNTS.forEach((module, count) -> out.put(module, count.get()));
    return out;
  }

  /**
   * The line the agent prints on stderr at exit when there were errors, e.g. {@code faultline:
   * agent errors at exit: 3 (kafka-network-client=3)}; empty when there were none.
   */
  public static String exitReport() {
    long total = total();
    if (total == 0) {
      return "";
    }
    StringBuilder line = new StringBuilder("faultline: agent errors at exit: ").append(total);
    line.append(" (");
    String separator = "";
    for (Map.Entry<String, Long> e : snapshot().entrySet()) {
      line.append(separator).append(e.getKey()).append('=').append(e.getValue());
      separator = ", ";
    }
    return line.append(')').toString();
  }
}
