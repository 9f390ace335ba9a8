package io.faultline.core.config;

import java.util.List;

/**
 * A module's list of the configuration keys it reads, published through {@link
 * java.util.ServiceLoader} ({@code META-INF/services/io.faultline.core.config.ConfigKeyCatalog}) so
 * the configuration loader can recognise every key (and suggest the closest one for a typo) and the
 * documentation check can list them.
 */
public interface ConfigKeyCatalog {

  /** Every key this module reads. */
  List<ConfigKey<?>> keys();
}
