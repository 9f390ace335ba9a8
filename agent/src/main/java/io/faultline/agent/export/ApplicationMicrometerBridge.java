package io.faultline.agent.export;

import io.faultline.core.Loggers;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Mirrors every meter of the agent's own (relocated) Micrometer registry into the application's
 * Micrometer, {@code Metrics.globalRegistry}, under the same name, tags, description and unit, so
 * an application that exports its metrics (Spring Boot's actuator, its own Prometheus registry)
 * shows Faultline's too.
 *
 * <p>The application's Micrometer is a different set of classes from ours (ours are relocated), so
 * every call into it is reflective and passes only JDK types: counters become its {@code
 * FunctionCounter}, gauges its {@code Gauge}, timers its {@code FunctionTimer}, each reading our
 * meter. Meters added or removed later follow. A failure is logged once and stops the mirror; it
 * never reaches the application.
 */
public final class ApplicationMicrometerBridge {

  private static final System.Logger LOG = Loggers.get(ApplicationMicrometerBridge.class.getName());

  /**
   * The application's Micrometer package. Assembled at run time: the agent jar's build rewrites
   * every {@code io.micrometer...} string constant to the relocated package, and this one must name
   * the application's.
   */
  static final String APP_PACKAGE = String.join(".", "io", "micrometer", "core", "instrument");

  /** The class whose loading tells that the application has Micrometer, in JVM internal form. */
  public static final String METRICS_INTERNAL_NAME = (APP_PACKAGE + ".Metrics").replace('.', '/');

  private final MeterRegistry source;
  private final Set<ClassLoader> bridged = Collections.newSetFromMap(new WeakHashMap<>());

  /** A bridge from {@code source}, the agent's registry. */
  public ApplicationMicrometerBridge(MeterRegistry source) {
    this.source = Objects.requireNonNull(source, "source");
  }

  /**
   * Mirrors into the {@code Metrics.globalRegistry} that {@code loader} sees; does nothing when
   * already done for that loader. Returns whether the mirror is (now) in place. Never throws.
   */
  public synchronized boolean bridgeInto(ClassLoader loader) {
    if (loader == null || bridged.contains(loader)) {
      return loader != null;
    }
    try {
      Class<?> metrics = Class.forName(APP_PACKAGE + ".Metrics", true, loader);
      Object global = metrics.getField("globalRegistry").get(null);
      Target target = new Target(loader, global);
      bridged.add(loader);
      Map<Meter, Object> mirrored = Collections.synchronizedMap(new IdentityHashMap<>());
      source
          .config()
          .onMeterAdded(meter -> mirror(target, meter, mirrored))
          .onMeterRemoved(meter -> unmirror(target, meter, mirrored));
      for (Meter meter : source.getMeters()) {
        mirror(target, meter, mirrored);
      }
      LOG.log(
          Level.INFO,
          "faultline: mirroring "
              + mirrored.size()
              + " meters into the application's Micrometer (Metrics.globalRegistry)");
      return true;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      LOG.log(
          Level.WARNING,
          "faultline: cannot mirror meters into the application's Micrometer: "
              + e
              + ". Scrape the agent's own endpoint instead (prometheus.port).");
      return false;
    }
  }

  private static void mirror(Target target, Meter meter, Map<Meter, Object> mirrored) {
    if (mirrored.containsKey(meter)) {
      return;
    }
    try {
      Object registered = target.register(meter);
      if (registered != null) {
        mirrored.put(meter, registered);
      }
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      if (target.warned.compareAndSet(false, true)) {
        LOG.log(
            Level.WARNING,
            "faultline: cannot mirror " + meter.getId().getName() + " into the application: " + e);
      }
    }
  }

  private static void unmirror(Target target, Meter meter, Map<Meter, Object> mirrored) {
    Object registered = mirrored.remove(meter);
    if (registered != null) {
      try {
        target.remove(registered);
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        LOG.log(Level.DEBUG, "faultline: cannot remove a mirrored meter", e);
      }
    }
  }

  /** The application's registry and the reflective handles on its builders. */
  private static final class Target {
    final Object registry;
    final Class<?> registryType;
    final Method gaugeBuilder;
    final Method counterBuilder;
    final Method timerBuilder;
    final Method remove;
    final java.util.concurrent.atomic.AtomicBoolean warned =
        new java.util.concurrent.atomic.AtomicBoolean();

    Target(ClassLoader loader, Object registry) throws ReflectiveOperationException {
      this.registry = registry;
      this.registryType = Class.forName(APP_PACKAGE + ".MeterRegistry", false, loader);
      Class<?> meterType = Class.forName(APP_PACKAGE + ".Meter", false, loader);
      this.gaugeBuilder =
          Class.forName(APP_PACKAGE + ".Gauge", false, loader)
              .getMethod("builder", String.class, Object.class, ToDoubleFunction.class);
      this.counterBuilder =
          Class.forName(APP_PACKAGE + ".FunctionCounter", false, loader)
              .getMethod("builder", String.class, Object.class, ToDoubleFunction.class);
      this.timerBuilder =
          Class.forName(APP_PACKAGE + ".FunctionTimer", false, loader)
              .getMethod(
                  "builder",
                  String.class,
                  Object.class,
                  ToLongFunction.class,
                  ToDoubleFunction.class,
                  TimeUnit.class);
      this.remove = registryType.getMethod("remove", meterType);
    }

    /** Registers a mirror of {@code meter}; null for kinds that are not mirrored. */
    Object register(Meter meter) throws ReflectiveOperationException {
      String name = meter.getId().getName();
      Object builder;
      if (meter instanceof Counter counter) {
        builder =
            counterBuilder.invoke(null, name, counter, (ToDoubleFunction<Counter>) Counter::count);
      } else if (meter instanceof FunctionCounter counter) {
        builder =
            counterBuilder.invoke(
                null, name, counter, (ToDoubleFunction<FunctionCounter>) FunctionCounter::count);
      } else if (meter instanceof TimeGauge gauge) {
        builder =
            gaugeBuilder.invoke(
                null, name, gauge, (ToDoubleFunction<TimeGauge>) g -> g.value(TimeUnit.SECONDS));
      } else if (meter instanceof Gauge gauge) {
        builder = gaugeBuilder.invoke(null, name, gauge, (ToDoubleFunction<Gauge>) Gauge::value);
      } else if (meter instanceof Timer timer) {
        builder =
            timerBuilder.invoke(
                null,
                name,
                timer,
                (ToLongFunction<Timer>) Timer::count,
                (ToDoubleFunction<Timer>) t -> t.totalTime(TimeUnit.SECONDS),
                TimeUnit.SECONDS);
      } else if (meter instanceof FunctionTimer timer) {
        builder =
            timerBuilder.invoke(
                null,
                name,
                timer,
                (ToLongFunction<FunctionTimer>) t -> (long) t.count(),
                (ToDoubleFunction<FunctionTimer>) t -> t.totalTime(TimeUnit.SECONDS),
                TimeUnit.SECONDS);
      } else {
        return null; // distribution summaries and long task timers: scrape the agent for those
      }
      Class<?> type = builder.getClass();
      for (Tag tag : meter.getId().getTagsAsIterable()) {
        type.getMethod("tag", String.class, String.class)
            .invoke(builder, tag.getKey(), tag.getValue());
      }
      if (meter.getId().getDescription() != null) {
        type.getMethod("description", String.class).invoke(builder, meter.getId().getDescription());
      }
      if (meter.getId().getBaseUnit() != null && !(meter instanceof Timer)) {
        try {
          type.getMethod("baseUnit", String.class).invoke(builder, meter.getId().getBaseUnit());
        } catch (NoSuchMethodException e) {
          // FunctionTimer has no base unit of its own: time is its unit
        }
      }
      return type.getMethod("register", registryType).invoke(builder, registry);
    }

    void remove(Object registered) throws ReflectiveOperationException {
      remove.invoke(registry, registered);
    }
  }
}
