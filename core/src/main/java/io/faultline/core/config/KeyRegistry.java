package io.faultline.core.config;

import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The keys a configuration recognises, by name: those of every {@link ConfigKeyCatalog} on the
 * class path plus any given explicitly. A catalog that fails to load, or two different declarations
 * of one name, are problems (the first declaration wins), never exceptions.
 */
final class KeyRegistry {

  private final Map<String, ConfigKey<?>> keys;

  private KeyRegistry(Map<String, ConfigKey<?>> keys) {
    this.keys = Collections.unmodifiableMap(keys);
  }

  static KeyRegistry build(
      boolean fromClassPath, Collection<ConfigKey<?>> explicit, Problems problems) {
    Map<String, ConfigKey<?>> keys = new TreeMap<>();
    if (fromClassPath) {
      for (ConfigKeyCatalog catalog : catalogs(problems)) {
        try {
          for (ConfigKey<?> key : catalog.keys()) {
            add(keys, key, catalog.getClass().getName(), problems);
          }
        } catch (RuntimeException e) {
          problems.error(
              "",
              catalog.getClass().getName(),
              "configuration key catalog failed to list its keys ("
                  + e
                  + "); its keys are unknown, report this as a Faultline bug");
        }
      }
    }
    for (ConfigKey<?> key : explicit) {
      add(keys, key, "explicitly given keys", problems);
    }
    return new KeyRegistry(keys);
  }

  private static Iterable<ConfigKeyCatalog> catalogs(Problems problems) {
    java.util.List<ConfigKeyCatalog> found = new java.util.ArrayList<>();
    Iterator<ConfigKeyCatalog> it =
        ServiceLoader.load(ConfigKeyCatalog.class, KeyRegistry.class.getClassLoader()).iterator();
    while (true) {
      try {
        if (!it.hasNext()) {
          return found;
        }
        found.add(it.next());
      } catch (ServiceConfigurationError e) {
        // One broken catalog (a missing class, a failing constructor) must not hide the others.
        problems.error(
            "",
            "META-INF/services/" + ConfigKeyCatalog.class.getName(),
            "a configuration key catalog could not be loaded ("
                + e.getMessage()
                + "); its keys are unknown, report this as a Faultline bug");
      }
    }
  }

  private static void add(
      Map<String, ConfigKey<?>> keys, ConfigKey<?> key, String declaredBy, Problems problems) {
    if (key.name().equals(key.feature())
        && key.type() != ValueType.BOOLEAN
        && !FeatureSwitch.isOffEnum(key.defaultValue())) {
      problems.error(
          key.name(),
          declaredBy,
          "a key named after its feature is that feature's on/off switch and must be boolean"
              + " or an enum with an OFF value; ignored, rename it (a Faultline bug)");
      return;
    }
    ConfigKey<?> earlier = keys.putIfAbsent(key.name(), key);
    if (earlier != null && !sameDeclaration(earlier, key)) {
      problems.error(
          key.name(),
          declaredBy,
          "declared twice with different types or defaults; the first declaration is used"
              + " (a Faultline bug: each key is declared by one module)");
    }
  }

  private static boolean sameDeclaration(ConfigKey<?> a, ConfigKey<?> b) {
    return a.type().name().equals(b.type().name())
        && a.defaultText().equals(b.defaultText())
        && a.feature().equals(b.feature());
  }

  Map<String, ConfigKey<?>> byName() {
    return keys;
  }

  ConfigKey<?> get(String name) {
    return keys.get(name);
  }
}
