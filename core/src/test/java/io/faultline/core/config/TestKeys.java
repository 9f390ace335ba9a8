package io.faultline.core.config;

import java.time.Duration;
import java.util.List;

/** Keys of an imaginary module, passed explicitly to the loader in tests. */
final class TestKeys {

  static final ConfigKey<Boolean> CHURN = ConfigKey.bool("net.churn", true, "net.churn", "switch");
  static final ConfigKey<Duration> CHURN_WINDOW =
      ConfigKey.duration("net.churn.window", Duration.ofMinutes(1), "net.churn", "window");
  static final ConfigKey<Integer> CHURN_LIMIT =
      ConfigKey.integer("net.churn.max-connects", 100, "net.churn", "limit");
  static final ConfigKey<Duration> TCP_INTERVAL =
      ConfigKey.duration("kafka.tcp.interval", Duration.ofSeconds(30), "kafka.tcp", "interval");
  static final ConfigKey<Long> BUFFER =
      ConfigKey.size("kafka.tcp.buffer", 64 * 1024L, "kafka.tcp", "buffer");
  static final ConfigKey<String> TAGS = ConfigKey.string("export.tags", "", "export", "tags");

  static final List<ConfigKey<?>> ALL =
      List.of(CHURN, CHURN_WINDOW, CHURN_LIMIT, TCP_INTERVAL, BUFFER, TAGS);

  private TestKeys() {}
}
