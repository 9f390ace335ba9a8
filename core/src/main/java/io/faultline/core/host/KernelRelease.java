package io.faultline.core.host;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A kernel release string ({@code /proc/sys/kernel/osrelease}) as numbers plus the distribution's
 * suffix: {@code 5.4.0-42-generic} is 5.4.0 with suffix {@code -42-generic}.
 *
 * @param major e.g. 5
 * @param minor e.g. 4
 * @param patch the stable patch level, e.g. 78 in {@code 5.4.78}; 0 when absent
 * @param suffix everything after the numbers, e.g. {@code -21-amd64}; empty for a plain release
 * @param text the release as read
 */
record KernelRelease(int major, int minor, int patch, String suffix, String text)
    implements Comparable<KernelRelease> {

  private static final Pattern RELEASE = Pattern.compile("(\\d+)\\.(\\d+)(?:\\.(\\d+))?(.*)");

  /** Parses {@code text}; empty when it does not start with {@code major.minor}. */
  public static Optional<KernelRelease> parse(String text) {
    String trimmed = text.trim();
    Matcher m = RELEASE.matcher(trimmed);
    if (!m.matches()) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new KernelRelease(
              Integer.parseInt(m.group(1)),
              Integer.parseInt(m.group(2)),
              m.group(3) == null ? 0 : Integer.parseInt(m.group(3)),
              m.group(4),
              trimmed));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * Whether the numbers may not be the stable patch level: Debian ({@code 4.19.0-21-amd64}), Ubuntu
   * ({@code 5.4.0-42-generic}) and RHEL ({@code 4.18.0-305.el8}) keep the patch at 0 and backport
   * fixes under their own ABI number, so the number alone cannot say whether a fix is in.
   */
  public boolean distroNumbered() {
    return patch == 0 && suffix.matches("-\\d+.*");
  }

  /** Whether this release is at least {@code major.minor.patch}, by the numbers alone. */
  public boolean atLeast(int major, int minor, int patch) {
    return compareTo(new KernelRelease(major, minor, patch, "", "")) >= 0;
  }

  @Override
  public int compareTo(KernelRelease o) {
    if (major != o.major) {
      return Integer.compare(major, o.major);
    }
    if (minor != o.minor) {
      return Integer.compare(minor, o.minor);
    }
    return Integer.compare(patch, o.patch);
  }
}
