package io.faultline.core.host;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Flags a kernel without the SYN-cookie window-scale fix (mainline 909172a14974, 5.10) when SYN
 * cookies are enabled: the condition of the LINE Kafka incident.
 */
final class SynCookieKernelCheck implements HostCheck {

  /** The first fixed stable patch level of each stable line that got the backport. */
  static final Map<String, Integer> FIXED_STABLE =
      Map.of("4.4", 244, "4.9", 244, "4.14", 207, "4.19", 158, "5.4", 78, "5.9", 9);

  @Override
  public String name() {
    return "syn-cookie kernel bug";
  }

  @Override
  public ReadingScope scope() {
    return ReadingScope.KERNEL;
  }

  /** Whether {@code release} has the fix, by its numbers. */
  static boolean fixed(KernelRelease release) {
    if (release.atLeast(5, 10, 0)) {
      return true;
    }
    Integer fixedPatch = FIXED_STABLE.get(release.major() + "." + release.minor());
    return fixedPatch != null && release.patch() >= fixedPatch;
  }

  /** The release that fixes {@code release}'s line, for the evidence. */
  static String fixedIn(KernelRelease release) {
    Integer fixedPatch = FIXED_STABLE.get(release.major() + "." + release.minor());
    return fixedPatch != null
        ? release.major() + "." + release.minor() + "." + fixedPatch
        : "5.10 (no stable backport for " + release.major() + "." + release.minor() + ")";
  }

  @Override
  public CheckResult run(DoctorContext context) {
    Optional<String> text = context.proc().sysctlText("kernel.osrelease");
    Optional<KernelRelease> release = text.flatMap(KernelRelease::parse);
    OptionalLong cookies = context.proc().sysctl("net.ipv4.tcp_syncookies");
    if (release.isEmpty() || cookies.isEmpty()) {
      return CheckResult.unknown(
          name(),
          scope(),
          "cannot read kernel.osrelease or net.ipv4.tcp_syncookies ("
              + text.orElse("no release")
              + ")");
    }
    KernelRelease k = release.get();
    long syncookies = cookies.getAsLong();
    String evidence = "kernel " + k.text() + ", tcp_syncookies=" + syncookies;
    List<String> notes = new ArrayList<>();
    if (fixed(k)) {
      return CheckResult.of(
          name(), scope(), evidence + " (fix present by version)", List.of(), notes);
    }
    if (syncookies == 0) {
      notes.add(
          "kernel predates the fix ("
              + fixedIn(k)
              + ") but SYN cookies are off: a full SYN queue drops SYNs instead");
      return CheckResult.of(name(), scope(), evidence, List.of(), notes);
    }
    Finding.Builder finding =
        Finding.of(HostFindingTypes.SYN_COOKIE_WSCALE_KERNEL_BUG, "kernel " + k.text())
            .evidence("kernel.osrelease", k.text())
            .evidence("net.ipv4.tcp_syncookies", syncookies)
            .evidence("fixed_in", fixedIn(k));
    String message =
        "Kernel "
            + k.text()
            + " predates the SYN-cookie window-scale fix ("
            + fixedIn(k)
            + ") and tcp_syncookies="
            + syncookies
            + (syncookies == 2 ? " (every connection uses cookies)" : " (cookies on overflow)");
    if (k.distroNumbered()) {
      // Debian/Ubuntu/RHEL keep patch 0 and backport under their own numbers.
      finding.evidence(
          "version_ambiguous",
          "distribution release: patch level 0 with ABI suffix '"
              + k.suffix()
              + "' does not tell the stable patch level; check the package changelog for"
              + " 909172a14974");
      message += "; the distribution's numbering is ambiguous, the fix may be backported";
    }
    if (syncookies == 2) {
      finding.severity(Severity.CRITICAL);
    }
    return CheckResult.of(
        name(), scope(), evidence, List.of(finding.message(message).build()), notes);
  }
}
