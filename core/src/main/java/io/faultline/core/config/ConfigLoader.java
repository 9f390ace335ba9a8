package io.faultline.core.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Does the work of {@link FaultlineConfig.Builder#load()}: reads, merges, parses, validates. */
final class ConfigLoader {

  private static final String CONFIG = CoreConfigKeys.CONFIG.name();

  private final ConfigSources sources;
  private final Problems problems = new Problems();

  private ConfigLoader(ConfigSources sources) {
    this.sources = sources;
  }

  static FaultlineConfig load(
      ConfigSources sources, boolean fromClassPath, Collection<ConfigKey<?>> explicitKeys) {
    ConfigLoader loader = new ConfigLoader(sources);
    KeyRegistry registry = KeyRegistry.build(fromClassPath, explicitKeys, loader.problems);
    try {
      return loader.load(registry);
    } catch (RuntimeException e) {
      // A bug here must not stop the host application: run on defaults and say so.
      Problems problems = new Problems();
      problems.error(
          "",
          "configuration",
          "configuration could not be loaded ("
              + e
              + "); every key uses its default. Report this as a Faultline bug");
      return loader.defaults(registry, problems);
    }
  }

  private FaultlineConfig load(KeyRegistry registry) {
    List<Setting> environment = environment();
    List<Setting> systemProperties = systemProperties();
    List<Setting> agent = AgentArguments.parse(sources.agentArguments(), problems);

    List<Setting> file = List.of();
    Setting configPath = lastOf(CONFIG, environment, systemProperties, agent);
    if (configPath != null && !configPath.rawValue().isBlank()) {
      file = ConfigFile.read(configPath.rawValue(), configPath.source(), problems);
    }

    Map<String, Setting> winning = new HashMap<>();
    for (List<Setting> layer : List.of(file, environment, systemProperties, agent)) {
      Map<String, Setting> seenInLayer = new HashMap<>();
      for (Setting setting : layer) {
        if (registry.get(setting.key()) == null) {
          warnUnknown(setting, registry);
          continue;
        }
        if (setting.kind() == Setting.Kind.FILE && setting.key().equals(CONFIG)) {
          problems.warning(
              CONFIG,
              setting.source(),
              "config inside the config file has no effect; set it as -Dfaultline.config,"
                  + " FAULTLINE_CONFIG or the agent argument config=");
          continue;
        }
        Setting earlier = seenInLayer.put(setting.key(), setting);
        if (earlier != null) {
          problems.warning(
              setting.key(),
              setting.source(),
              "set more than once; the last value ("
                  + Printable.masked(setting.rawValue())
                  + ") wins over the earlier one ("
                  + Printable.masked(earlier.rawValue())
                  + "), remove the other");
        }
        winning.put(setting.key(), setting);
      }
    }
    return resolve(registry, winning);
  }

  private FaultlineConfig resolve(KeyRegistry registry, Map<String, Setting> winning) {
    Map<String, Object> values = new LinkedHashMap<>();
    List<EffectiveSetting> effective = new ArrayList<>();
    Set<String> rejectedFeatures = new HashSet<>();
    for (ConfigKey<?> key : registry.byName().values()) {
      Setting setting = winning.get(key.name());
      Object value = key.defaultValue();
      String source = "default";
      if (setting != null) {
        try {
          value = key.type().parse(setting.rawValue());
          source = setting.source();
        } catch (RuntimeException e) {
          rejectedFeatures.add(key.feature());
          // The value itself is never echoed: it may be a secret typed into the wrong key.
          String described = Printable.masked(setting.rawValue());
          source = "default (rejected " + described + ")";
          problems.error(
              key.name(),
              setting.source(),
              "the value given ("
                  + described
                  + ") is not valid: expected "
                  + key.type().expected()
                  + ". Using the default "
                  + key.defaultText()
                  + " and turning feature '"
                  + key.feature()
                  + "' off; fix the value to turn it back on");
        }
      }
      values.put(key.name(), value);
      effective.add(new EffectiveSetting(key.name(), format(key, value), source, key.feature()));
    }
    return new FaultlineConfig(
        registry.byName(),
        values,
        effective,
        features(registry, values, rejectedFeatures),
        problems.toList());
  }

  FaultlineConfig defaults(KeyRegistry registry, Problems problems) {
    Map<String, Object> values = new LinkedHashMap<>();
    List<EffectiveSetting> effective = new ArrayList<>();
    for (ConfigKey<?> key : registry.byName().values()) {
      values.put(key.name(), key.defaultValue());
      effective.add(new EffectiveSetting(key.name(), key.defaultText(), "default", key.feature()));
    }
    return new FaultlineConfig(
        registry.byName(),
        values,
        effective,
        features(registry, values, Set.of()),
        problems.toList());
  }

  /** Feature → enabled: its switch is on (or it has none) and none of its values was rejected. */
  private static Map<String, Boolean> features(
      KeyRegistry registry, Map<String, Object> values, Set<String> rejected) {
    Map<String, Boolean> features = new TreeMap<>();
    for (ConfigKey<?> key : registry.byName().values()) {
      Object switchValue = values.get(key.feature());
      boolean switchedOn = FeatureSwitch.isOn(switchValue);
      features.put(key.feature(), switchedOn && !rejected.contains(key.feature()));
    }
    return features;
  }

  @SuppressWarnings("unchecked")
  private static <T> String format(ConfigKey<T> key, Object value) {
    try {
      return key.type().format((T) value);
    } catch (RuntimeException e) {
      return String.valueOf(value);
    }
  }

  private void warnUnknown(Setting setting, KeyRegistry registry) {
    String typed = setting.key();
    String hint;
    String unprefixed =
        typed.startsWith(ConfigSources.SYSTEM_PROPERTY_PREFIX)
            ? typed.substring(ConfigSources.SYSTEM_PROPERTY_PREFIX.length())
            : null;
    if (unprefixed != null && registry.get(unprefixed) != null) {
      hint = "; did you mean " + setting.kind().spell(unprefixed) + " (no faultline. prefix here)?";
    } else {
      hint =
          EditDistance.closest(typed, registry.byName().keySet())
              .map(k -> "; did you mean " + setting.kind().spell(k) + "?")
              .orElse("; see docs/configuration.md for the keys");
    }
    problems.warning(
        Printable.shorten(typed),
        setting.source(),
        "unknown key " + Printable.quote(setting.writtenAs()) + " ignored" + hint);
  }

  private List<Setting> environment() {
    List<Setting> settings = new ArrayList<>();
    for (Map.Entry<String, String> e : sources.environment().entrySet()) {
      String key = EnvironmentNames.toKey(e.getKey());
      if (key != null) {
        settings.add(
            new Setting(
                key,
                e.getKey(),
                e.getValue(),
                Setting.Kind.ENVIRONMENT,
                "environment variable " + Printable.shorten(e.getKey())));
      }
    }
    return settings;
  }

  private List<Setting> systemProperties() {
    List<Setting> settings = new ArrayList<>();
    for (Map.Entry<String, String> e : sources.systemProperties().entrySet()) {
      String name = e.getKey();
      if (name.startsWith(ConfigSources.SYSTEM_PROPERTY_PREFIX)) {
        settings.add(
            new Setting(
                name.substring(ConfigSources.SYSTEM_PROPERTY_PREFIX.length()),
                name,
                e.getValue(),
                Setting.Kind.SYSTEM_PROPERTY,
                "system property " + Printable.shorten(name)));
      }
    }
    return settings;
  }

  /** The last setting of {@code key} in the highest-precedence layer that has one. */
  @SafeVarargs
  private static Setting lastOf(String key, List<Setting>... layersLowestFirst) {
    Setting found = null;
    for (List<Setting> layer : layersLowestFirst) {
      for (Setting setting : layer) {
        if (setting.key().equals(key)) {
          found = setting;
        }
      }
    }
    return found;
  }
}
