package io.faultline.core.finding;

import java.util.List;

/**
 * A module's list of the finding types it can raise, published through {@link
 * java.util.ServiceLoader} ({@code META-INF/services/io.faultline.core.finding.FindingCatalog}) so
 * that the documentation check and the status page see every type without knowing the module.
 */
public interface FindingCatalog {

  /** Every finding type this module can raise. */
  List<FindingType> findingTypes();
}
