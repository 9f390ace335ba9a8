package io.faultline.core.config;

import java.time.Duration;
import java.util.List;

/** The configuration keys of the core module itself. */
public final class CoreConfigKeys implements ConfigKeyCatalog {

  /**
   * Path of a properties file to read settings from. Set it in the environment, a system property
   * or the agent argument; inside the file itself it has no effect.
   */
  public static final ConfigKey<String> CONFIG =
      ConfigKey.string(
          "config",
          "",
          "core",
          "Path of a properties file with more settings (lowest precedence after the defaults)."
              + " Set it as FAULTLINE_CONFIG, -Dfaultline.config or the agent argument config=;"
              + " inside the file itself it has no effect. Empty: no file.");

  /** How often a finding that stays active is logged again. */
  public static final ConfigKey<Duration> FINDINGS_LOG_INTERVAL =
      ConfigKey.duration(
          "findings.log-interval",
          Duration.ofMinutes(10),
          "findings",
          "A finding is logged when it becomes active, when it clears, at once when its severity"
              + " rises, and again at most once per this interval while it stays active at WARNING"
              + " or CRITICAL and is still being reported (an INFO finding is logged once). 0s"
              + " logs every such report.");

  /** Findings that turn a health check DOWN while active. */
  public static final ConfigKey<String> HEALTH_DOWN_ON =
      ConfigKey.string(
          "health.down-on",
          "",
          "findings",
          "Finding ids (comma-separated, e.g. JOOQ_SUBTRANSACTION_OVERFLOW,"
              + "JOOQ_SAVEPOINT_AFTER_ROW_LOCK) that turn the Spring Boot starter's faultline"
              + " health contributor DOWN while one of them is active. Empty: findings are"
              + " details and the contributor stays UP.");

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public CoreConfigKeys() {}

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(CONFIG, FINDINGS_LOG_INTERVAL, HEALTH_DOWN_ON);
  }
}
