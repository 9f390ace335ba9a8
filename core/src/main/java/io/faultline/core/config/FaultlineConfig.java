package io.faultline.core.config;

import io.faultline.core.Loggers;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Faultline's configuration: every known key with a typed value, read once and then immutable.
 *
 * <p><b>Sources</b>, lowest precedence first: each key's default; the properties file named by the
 * {@code config} key (which may itself be set by any of the sources after it); environment
 * variables {@code FAULTLINE_*} ({@link EnvironmentNames}: {@code .} is {@code _}, {@code -} is
 * {@code __}); system properties {@code -Dfaultline.<key>}; the agent argument string {@code
 * key=value,key=value} (a value with a comma is double-quoted, {@code tags="a,b"}; a repeated key
 * keeps its last value, with a warning).
 *
 * <p><b>Known keys</b> are those of every {@link ConfigKeyCatalog} on the class path plus any given
 * to {@link Builder#keys}.
 *
 * <p><b>Features.</b> Every key belongs to a feature. By convention a feature's on/off switch is
 * the boolean key whose name <em>is</em> the feature name, declared {@code ConfigKey.bool(feature,
 * true, feature, ...)}: {@code net.churn=off} turns feature {@code net.churn} off. {@link
 * #isFeatureEnabled} is true when the switch is on (or the feature has none) and no key of the
 * feature had its value rejected: a feature never runs on a setting the user did not mean.
 *
 * <p><b>Bad input never throws.</b> An unknown key is a warning that names the closest known key; a
 * value that does not parse is an error, the key keeps its default and its feature is off; an
 * unreadable config file is an error and the other sources still apply. Read them from {@link
 * #problems()} and print them with {@link ConfigProblem#toLine()}.
 */
public final class FaultlineConfig {

  /**
   * Created at the first warning, not with the class: the agent loads the configuration in {@code
   * premain}, and the JDK's logger set-up took 20-30 ms of the application's main thread there.
   */
  private static final class Log {
    static final System.Logger LOG = Loggers.get(FaultlineConfig.class.getName());
  }

  private final Map<String, ConfigKey<?>> keys;
  private final Map<String, Object> values;
  private final List<EffectiveSetting> effective;
  private final Map<String, Boolean> features;
  private final List<ConfigProblem> problems;
  private final Set<String> warnedUndeclared = ConcurrentHashMap.newKeySet();

  FaultlineConfig(
      Map<String, ConfigKey<?>> keys,
      Map<String, Object> values,
      List<EffectiveSetting> effective,
      Map<String, Boolean> features,
      List<ConfigProblem> problems) {
    this.keys = Map.copyOf(keys);
    this.values = Map.copyOf(values);
    this.effective = List.copyOf(effective);
    this.features = Map.copyOf(features);
    this.problems = List.copyOf(problems);
  }

  /** Starts loading a configuration. */
  public static Builder builder() {
    return new Builder();
  }

  /** Loads from the real environment, system properties and the given agent argument string. */
  public static FaultlineConfig load(String agentArguments) {
    return builder().sources(ConfigSources.ofProcess(agentArguments)).load();
  }

  /** Every key of the class path's catalogs at its default; for code that runs unconfigured. */
  public static FaultlineConfig defaults() {
    return builder().sources(ConfigSources.none()).load();
  }

  /**
   * The value of {@code key}: what the user set, or its default when unset or rejected. A key that
   * no catalog declared returns its default (and logs once that it should be declared).
   */
  public <T> T get(ConfigKey<T> key) {
    Object value = values.get(key.name());
    if (keys.containsKey(key.name()) && valueClass(key).isInstance(value)) {
      @SuppressWarnings("unchecked") // checked by isInstance just above
      T typed = (T) value;
      return typed;
    }
    if (warnedUndeclared.add(key.name())) {
      Log.LOG.log(
          Level.WARNING,
          "faultline: config key {0} is read but not declared by any ConfigKeyCatalog (or declared"
              + " with another type); using its default. Add it to its module''s catalog.",
          key.name());
    }
    return key.defaultValue();
  }

  private static Class<?> valueClass(ConfigKey<?> key) {
    Object value = key.defaultValue();
    // An enum constant with a body is an anonymous subclass; its siblings are not instances of it.
    return value instanceof Enum<?> e ? e.getDeclaringClass() : value.getClass();
  }

  /**
   * Whether {@code feature} should run: its switch key (the boolean key named like the feature) is
   * on, or it has none, and none of its keys had a rejected value.
   */
  public boolean isFeatureEnabled(String feature) {
    return features.getOrDefault(feature, Boolean.TRUE);
  }

  /** Every feature that has at least one known key, sorted, with whether it is enabled. */
  public Map<String, Boolean> features() {
    return new java.util.TreeMap<>(features);
  }

  /** The problems found while loading, in the order found; empty when all input was good. */
  public List<ConfigProblem> problems() {
    return problems;
  }

  /** Every known key with its value in use and where it came from, sorted by key. */
  public List<EffectiveSetting> effective() {
    return effective;
  }

  /** Every known key, sorted by name. */
  public Collection<ConfigKey<?>> keys() {
    return new java.util.TreeMap<>(keys).values();
  }

  /**
   * The effective configuration as text, one {@code key = value (source)} line per key, for a
   * status page or a startup log.
   */
  public String effectiveAsText() {
    int width =
        effective.stream().mapToInt(s -> s.key().length() + s.value().length()).max().orElse(0);
    StringBuilder out = new StringBuilder();
    for (EffectiveSetting s : effective) {
      String setting = s.key() + " = " + Printable.oneLine(s.value());
      char[] pad = new char[Math.max(1, width + 5 - setting.length())];
      Arrays.fill(pad, ' ');
      out.append(setting).append(pad).append('(').append(s.source()).append(")\n");
    }
    return out.toString();
  }

  /** Collects the inputs of a load; {@link #load()} never throws. */
  public static final class Builder {
    private ConfigSources sources = ConfigSources.none();
    private boolean fromClassPath = true;
    private final List<ConfigKey<?>> keys = new ArrayList<>();

    private Builder() {}

    /** Where to read from; default {@link ConfigSources#none()}. */
    public Builder sources(ConfigSources sources) {
      this.sources = Objects.requireNonNull(sources, "sources");
      return this;
    }

    /** Keys to know besides those of the class path's catalogs. */
    public Builder keys(Collection<? extends ConfigKey<?>> keys) {
      Objects.requireNonNull(keys, "keys");
      for (ConfigKey<?> key : keys) {
        Objects.requireNonNull(key, "keys: a key is null");
      }
      this.keys.addAll(keys);
      return this;
    }

    /** Keys to know besides those of the class path's catalogs. */
    public Builder keys(ConfigKey<?>... keys) {
      return keys(Arrays.asList(Objects.requireNonNull(keys, "keys")));
    }

    /**
     * Whether to know the keys of every {@link ConfigKeyCatalog} found by {@link
     * java.util.ServiceLoader}; default true. Off, only {@link #keys} are known (and {@code
     * config}).
     */
    public Builder catalogsFromClassPath(boolean fromClassPath) {
      this.fromClassPath = fromClassPath;
      return this;
    }

    /** Reads every source; problems are in {@link FaultlineConfig#problems()}, never thrown. */
    public FaultlineConfig load() {
      List<ConfigKey<?>> all = new ArrayList<>(keys);
      all.add(CoreConfigKeys.CONFIG);
      return ConfigLoader.load(sources, fromClassPath, all);
    }
  }
}
