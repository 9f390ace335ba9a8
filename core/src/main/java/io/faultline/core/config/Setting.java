package io.faultline.core.config;

/**
 * One raw {@code key = value} as a source gave it, before parsing.
 *
 * @param key the key name as given (environment names already mapped to dotted keys)
 * @param writtenAs the name exactly as the user wrote it ({@code FAULTLINE_KAFKA_TCP_INTERVAL})
 * @param rawValue the text of the value
 * @param kind which kind of source, to spell a suggested key the way that source writes it
 * @param source where it came from, for messages and the effective-configuration listing
 */
record Setting(String key, String writtenAs, String rawValue, Kind kind, String source) {

  /** The kinds of source, lowest precedence first. */
  enum Kind {
    FILE,
    ENVIRONMENT,
    SYSTEM_PROPERTY,
    AGENT_ARGUMENT;

    /** {@code key} written the way this source writes it. */
    String spell(String key) {
      return switch (this) {
        case ENVIRONMENT -> EnvironmentNames.of(key);
        case SYSTEM_PROPERTY -> "-D" + ConfigSources.SYSTEM_PROPERTY_PREFIX + key;
        default -> key;
      };
    }
  }
}
