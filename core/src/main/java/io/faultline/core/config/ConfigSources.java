package io.faultline.core.config;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Where configuration comes from, other than the properties file (whose path is itself a setting,
 * {@code config}): the environment, the system properties and the agent argument string. Tests pass
 * their own maps so they never read or change the real environment.
 *
 * <p>Precedence, lowest to highest: defaults, the properties file, environment variables ({@code
 * FAULTLINE_*}, see {@link EnvironmentNames}), system properties ({@code -Dfaultline.*}), the agent
 * argument ({@code key=value,key=value}, see the configuration reference).
 */
public final class ConfigSources {

  /** System properties that configure Faultline start with this. */
  public static final String SYSTEM_PROPERTY_PREFIX = "faultline.";

  private final Supplier<Map<String, String>> environment;
  private final Supplier<Map<String, String>> systemProperties;
  private final String agentArguments;

  private ConfigSources(
      Supplier<Map<String, String>> environment,
      Supplier<Map<String, String>> systemProperties,
      String agentArguments) {
    this.environment = Objects.requireNonNull(environment, "environment");
    this.systemProperties = Objects.requireNonNull(systemProperties, "systemProperties");
    this.agentArguments = agentArguments == null ? "" : agentArguments;
  }

  /** The real process environment and system properties, plus the agent's argument string. */
  public static ConfigSources ofProcess(String agentArguments) {
    // Named classes, not method references: this runs in the agent's premain, on the
    // application's start path, where each lambda is a class spun at run time.
    return new ConfigSources(new ProcessEnvironment(), new ProcessProperties(), agentArguments);
  }

  /**
   * The real process environment, the system properties as they are now, and the agent's argument
   * string: for a load that runs later, on another thread, while the application may already be
   * setting properties of its own.
   */
  public static ConfigSources ofProcessAtStart(String agentArguments) {
    return new ConfigSources(
        new ProcessEnvironment(), new Fixed(processSystemProperties()), agentArguments);
  }

  /**
   * Given sources, for tests and for embedding: each supplier is called once per load, and may
   * return any map (only {@code FAULTLINE_*} and {@code faultline.*} entries are read).
   */
  public static ConfigSources of(
      Supplier<Map<String, String>> environment,
      Supplier<Map<String, String>> systemProperties,
      String agentArguments) {
    return new ConfigSources(environment, systemProperties, agentArguments);
  }

  /** Given maps; see {@link #of(Supplier, Supplier, String)}. */
  public static ConfigSources of(
      Map<String, String> environment,
      Map<String, String> systemProperties,
      String agentArguments) {
    return new ConfigSources(
        new Fixed(Map.copyOf(environment)),
        new Fixed(Map.copyOf(systemProperties)),
        agentArguments);
  }

  /** No environment, no system properties, no agent argument: every key at its default. */
  public static ConfigSources none() {
    return of(Map.of(), Map.of(), "");
  }

  Map<String, String> environment() {
    return sorted(environment.get());
  }

  Map<String, String> systemProperties() {
    return sorted(systemProperties.get());
  }

  String agentArguments() {
    return agentArguments;
  }

  /** Sorted, so problems come out in the same order on every run. */
  private static Map<String, String> sorted(Map<String, String> map) {
    Map<String, String> sorted = new TreeMap<>();
    if (map != null) {
      for (Map.Entry<String, String> e : map.entrySet()) {
        if (e.getKey() != null && e.getValue() != null) {
          sorted.put(e.getKey(), e.getValue());
        }
      }
    }
    return sorted;
  }

  private static final class ProcessEnvironment implements Supplier<Map<String, String>> {
    @Override
    public Map<String, String> get() {
      return System.getenv();
    }
  }

  private static final class ProcessProperties implements Supplier<Map<String, String>> {
    @Override
    public Map<String, String> get() {
      return processSystemProperties();
    }
  }

  private static final class Fixed implements Supplier<Map<String, String>> {
    private final Map<String, String> map;

    Fixed(Map<String, String> map) {
      this.map = map;
    }

    @Override
    public Map<String, String> get() {
      return map;
    }
  }

  private static Map<String, String> processSystemProperties() {
    Map<String, String> props = new TreeMap<>();
    // A snapshot: stringPropertyNames copies, so a property set concurrently cannot break the loop.
    for (String name : System.getProperties().stringPropertyNames()) {
      if (name.startsWith(SYSTEM_PROPERTY_PREFIX)) {
        String value = System.getProperty(name);
        if (value != null) {
          props.put(name, value);
        }
      }
    }
    return props;
  }
}
