package io.faultline.core.config;

import java.util.Objects;

/**
 * Something wrong with the configuration the user gave: a key nobody reads, a value that does not
 * parse, a config file that cannot be read. Loading never throws; it collects these instead, and
 * the agent prints them with {@link #toLine()}.
 *
 * @param severity {@link Level#WARNING} when ignored input probably changes nothing (an unknown
 *     key, an empty agent-argument fragment), {@link Level#ERROR} when input meant to set something
 *     was rejected (a value that does not parse, an unreadable config file, a malformed fragment)
 * @param key the key concerned, or an empty string when the problem is not about one key (an
 *     unreadable file, a malformed agent argument)
 * @param source where the input came from, e.g. {@code environment variable
 *     FAULTLINE_KAFKA_TCP_INTERVAL}
 * @param message what is wrong and how to fix it, one line
 */
public record ConfigProblem(Level severity, String key, String source, String message) {

  /** How bad a configuration problem is. */
  public enum Level {
    /** Input was ignored; every feature still runs. */
    WARNING,
    /**
     * Input was rejected: what it meant to set is not set. A rejected value also turns its feature
     * off.
     */
    ERROR
  }

  /** Requires every part; messages are kept to one line so each problem prints as one line. */
  public ConfigProblem {
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(message, "message");
    message = Printable.oneLine(message);
  }

  /**
   * The problem as one stderr-ready line, e.g. {@code faultline: ERROR kafka.tcp.interval (agent
   * argument): ...}.
   */
  public String toLine() {
    StringBuilder line = new StringBuilder("faultline: ").append(severity).append(' ');
    if (!key.isEmpty()) {
      line.append(Printable.oneLine(key)).append(' ');
    }
    return line.append('(')
        .append(Printable.oneLine(source))
        .append("): ")
        .append(message)
        .toString();
  }

  @Override
  public String toString() {
    return toLine();
  }
}
