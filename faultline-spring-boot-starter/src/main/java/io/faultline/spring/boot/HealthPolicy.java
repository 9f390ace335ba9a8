package io.faultline.spring.boot;

import io.faultline.core.config.CoreConfigKeys;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Finding;
import io.faultline.core.finding.FindingCatalog;
import io.faultline.core.finding.FindingType;
import io.faultline.core.finding.Findings;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * Which active findings turn the {@code faultline} health contributor DOWN: those named by {@code
 * faultline.health.down-on}, none by default (a finding is advice about the service's database use,
 * not a reason for a load balancer to take it out). An id no finding catalog declares is reported
 * once, at start, and otherwise ignored.
 */
final class HealthPolicy {

  private static final System.Logger LOG = System.getLogger(HealthPolicy.class.getName());

  private final Set<String> downOn;

  HealthPolicy(Set<String> downOn) {
    this.downOn = Set.copyOf(downOn);
  }

  /** From {@code health.down-on}, checked against the finding catalogs on the class path. */
  static HealthPolicy of(FaultlineConfig config) {
    Set<String> ids = new LinkedHashSet<>();
    for (String id : config.get(CoreConfigKeys.HEALTH_DOWN_ON).split(",")) {
      String trimmed = id.trim().toUpperCase(Locale.ROOT);
      if (!trimmed.isEmpty()) {
        ids.add(trimmed);
      }
    }
    if (!ids.isEmpty()) {
      Set<String> known = new LinkedHashSet<>();
      for (FindingCatalog catalog : ServiceLoader.load(FindingCatalog.class)) {
        catalog.findingTypes().stream().map(FindingType::id).forEach(known::add);
      }
      List<String> unknown = new ArrayList<>(ids);
      unknown.removeAll(known);
      if (!unknown.isEmpty()) {
        LOG.log(
            System.Logger.Level.WARNING,
            "faultline: health.down-on names findings no module declares: {0}; they never turn"
                + " the health contributor DOWN (the ids are listed in docs/findings.md)",
            unknown);
      }
    }
    return new HealthPolicy(ids);
  }

  /** The active findings that make the contributor DOWN; empty when it stays UP. */
  List<String> downBecause(Findings findings) {
    List<String> because = new ArrayList<>();
    if (downOn.isEmpty()) {
      return because;
    }
    for (Finding finding : findings.active()) {
      if (downOn.contains(finding.id())) {
        because.add(finding.id() + " " + finding.subject());
      }
    }
    return because;
  }

  /** The ids configured, for the health details. */
  Set<String> downOn() {
    return downOn;
  }
}
