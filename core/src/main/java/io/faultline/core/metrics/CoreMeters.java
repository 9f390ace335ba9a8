package io.faultline.core.metrics;

import java.util.List;

/** The meters of the core module itself. */
public final class CoreMeters implements MeterCatalog {

  /** Active findings of one id and severity. */
  public static final MeterDoc FINDINGS_ACTIVE =
      new MeterDoc(
          "faultline.findings.active",
          MeterDoc.Type.GAUGE,
          "findings",
          List.of("id", "severity"),
          "Findings of this id and severity that are active now (raised and not cleared).",
          "findings");

  /** Times a finding of one id became active. */
  public static final MeterDoc FINDINGS_RAISED =
      new MeterDoc(
          "faultline.findings.raised",
          MeterDoc.Type.COUNTER,
          "findings",
          List.of("id"),
          "Times a finding of this id became active; repeated reports of an active finding do not"
              + " count.",
          "findings");

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public CoreMeters() {}

  @Override
  public List<MeterDoc> meters() {
    return List.of(FINDINGS_ACTIVE, FINDINGS_RAISED);
  }
}
