package io.faultline.spring.boot;

import io.faultline.core.config.ConfigKey;
import io.faultline.core.config.CoreConfigKeys;
import io.faultline.jooq.JooqConfigKeys;
import io.faultline.jooq.pool.PoolFeedbackConfigKeys;
import java.util.ArrayList;
import java.util.List;

/**
 * The configuration keys the starter applies, taken from the modules' own catalogs (never
 * redeclared): the jOOQ guard's, the PostgreSQL health poller's and the pool feedback's keys, and
 * how often findings are re-logged. The configuration metadata IDEs complete from is generated from
 * this list.
 */
final class StarterKeys {

  private StarterKeys() {}

  /** The keys, in catalog order. */
  static List<ConfigKey<?>> keys() {
    List<ConfigKey<?>> keys = new ArrayList<>();
    keys.add(CoreConfigKeys.FINDINGS_LOG_INTERVAL);
    keys.add(CoreConfigKeys.HEALTH_DOWN_ON);
    for (ConfigKey<?> key : new JooqConfigKeys().keys()) {
      if (key.feature().equals(JooqConfigKeys.GUARD)
          || key.feature().equals(JooqConfigKeys.HEALTH)) {
        keys.add(key);
      }
    }
    keys.addAll(new PoolFeedbackConfigKeys().keys());
    return List.copyOf(keys);
  }
}
