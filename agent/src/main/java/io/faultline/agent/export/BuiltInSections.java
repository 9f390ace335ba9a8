package io.faultline.agent.export;

import io.faultline.agent.instrumentation.InstalledModule;
import io.faultline.core.config.ConfigProblem;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Finding;
import io.faultline.core.finding.FindingType;
import io.faultline.core.finding.Findings;
import io.faultline.core.host.CheckResult;
import io.faultline.core.host.DoctorReport;
import io.faultline.core.host.HostFindingTypes;
import io.faultline.core.host.ReportRenderer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/** The sections every agent shows: findings, host doctor, instrumentation, configuration. */
public final class BuiltInSections {

  private BuiltInSections() {}

  /**
   * Active findings: this process's own first (its Kafka clients, its transactions), then the
   * host's; each group most severe first.
   */
  public static StatusSection findings(Findings findings) {
    return new StatusSection() {
      @Override
      public String title() {
        return "Active findings";
      }

      @Override
      public int order() {
        return 10;
      }

      @Override
      public void render(HtmlWriter html) {
        List<Finding> active = ownFirst(findings.active());
        if (active.isEmpty()) {
          html.note("No active findings.");
          return;
        }
        List<List<String>> rows = new ArrayList<>();
        for (Finding f : active) {
          rows.add(
              List.of(
                  f.severity().name(),
                  f.id(),
                  f.subject(),
                  f.message(),
                  f.evidence().toString(),
                  f.type().remediation()));
        }
        html.table(
            List.of("Severity", "Finding", "Subject", "Message", "Evidence", "What to do"), rows);
      }
    };
  }

  /** {@code active} (most severe first) with the host doctor's findings after the others. */
  static List<Finding> ownFirst(List<Finding> active) {
    Set<FindingType> host = Set.copyOf(new HostFindingTypes().findingTypes());
    List<Finding> ordered = new ArrayList<>(active.size());
    for (Finding f : active) {
      if (!host.contains(f.type())) {
        ordered.add(f);
      }
    }
    for (Finding f : active) {
      if (host.contains(f.type())) {
        ordered.add(f);
      }
    }
    return ordered;
  }

  /** The host doctor's last report. */
  public static StatusSection hostDoctor(Supplier<DoctorReport> latest) {
    return new StatusSection() {
      @Override
      public String title() {
        return "Host doctor";
      }

      @Override
      public int order() {
        return 80;
      }

      @Override
      public void render(HtmlWriter html) {
        DoctorReport report = latest.get();
        if (report == null) {
          html.note("The host checks have not run yet (they run right after start).");
          return;
        }
        html.paragraph(ReportRenderer.summary(report));
        List<List<String>> rows = new ArrayList<>();
        for (CheckResult r : report.results()) {
          rows.add(List.of(r.check(), r.status().name(), r.evidence()));
        }
        html.table(List.of("Check", "Status", "Evidence"), rows);
      }
    };
  }

  /** Every instrumentation module and what became of it. */
  public static StatusSection instrumentation(Supplier<List<InstalledModule>> modules) {
    return new StatusSection() {
      @Override
      public String title() {
        return "Instrumentation";
      }

      @Override
      public int order() {
        return 900;
      }

      @Override
      public void render(HtmlWriter html) {
        List<InstalledModule> all = modules.get();
        if (all.isEmpty()) {
          html.note("No instrumentation modules are installed.");
          return;
        }
        List<List<Object>> rows = new ArrayList<>();
        for (InstalledModule m : all) {
          rows.add(
              List.of(
                  m.name(),
                  m.moduleSwitch().state().name(),
                  m.wovenTypes().isEmpty()
                      ? "(target not loaded)"
                      : String.join(", ", m.wovenTypes()),
                  m.errors(),
                  m.moduleSwitch().reason()));
        }
        html.table(List.of("Module", "State", "Woven into", "Errors", "Reason"), rows);
      }
    };
  }

  /** Configuration problems and the effective settings. */
  public static StatusSection configuration(FaultlineConfig config) {
    return new StatusSection() {
      @Override
      public String title() {
        return "Configuration";
      }

      @Override
      public int order() {
        return 950;
      }

      @Override
      public void render(HtmlWriter html) {
        if (config.problems().isEmpty()) {
          html.note("No configuration problems.");
        } else {
          List<List<String>> rows = new ArrayList<>();
          for (ConfigProblem p : config.problems()) {
            rows.add(List.of(p.severity().name(), p.key(), p.source(), p.message()));
          }
          html.table(List.of("Level", "Key", "Source", "Problem"), rows);
        }
        html.preformatted(config.effectiveAsText());
      }
    };
  }
}
