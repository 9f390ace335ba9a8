package io.faultline.spring.boot;

import io.faultline.core.config.ConfigKey;
import io.faultline.core.config.ConfigProblem;
import io.faultline.core.config.ConfigSources;
import io.faultline.core.config.FaultlineConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.core.env.Environment;

/**
 * Reads {@code faultline.<key>} for every key of the class path's catalogs from Spring's {@link
 * Environment} (so {@code application.yml}, profiles, command-line arguments and Spring's relaxed
 * environment-variable names all apply) into a {@link FaultlineConfig}, which parses and checks
 * them as it does for the agent.
 */
final class SpringEnvironmentConfig {

  private static final System.Logger LOG =
      System.getLogger(SpringEnvironmentConfig.class.getName());

  private SpringEnvironmentConfig() {}

  static FaultlineConfig load(Environment environment) {
    Map<String, String> properties = new LinkedHashMap<>();
    for (ConfigKey<?> key : FaultlineConfig.defaults().keys()) {
      String name = ConfigSources.SYSTEM_PROPERTY_PREFIX + key.name();
      String value = environment.getProperty(name);
      if (value != null) {
        properties.put(name, value);
      }
    }
    // Spring's environment already holds the process's system properties and environment
    // variables: they are not read a second time.
    FaultlineConfig config =
        FaultlineConfig.builder().sources(ConfigSources.of(Map.of(), properties, "")).load();
    for (ConfigProblem problem : config.problems()) {
      // The catalog's loader names the source "system property"; here it is Spring's property.
      LOG.log(
          System.Logger.Level.WARNING,
          problem.toLine()
              + " [read from the Spring Environment: application properties,"
              + " command line, environment]");
    }
    return config;
  }
}
