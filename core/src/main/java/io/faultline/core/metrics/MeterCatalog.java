package io.faultline.core.metrics;

import java.util.List;

/**
 * A module's list of the meters it registers, published through {@link java.util.ServiceLoader}
 * ({@code META-INF/services/io.faultline.core.metrics.MeterCatalog}) so {@code docs/metrics.md}
 * lists every meter from its declaration.
 */
public interface MeterCatalog {

  /** Every meter this module registers. */
  List<MeterDoc> meters();
}
