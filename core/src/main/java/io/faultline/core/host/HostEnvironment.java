package io.faultline.core.host;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether the doctor runs inside a container, and how it knows. In a container the TCP sysctls,
 * {@code /proc/net/*} counters and {@code sockstat} are the container's own network namespace,
 * while {@code net.core.rmem_max}, {@code /proc/softirqs} and the host NICs' {@code rps_cpus} are
 * the host's (or not visible at all).
 *
 * @param inContainer whether any sign of a container was found
 * @param signs what was found, e.g. {@code /.dockerenv}
 */
public record HostEnvironment(boolean inContainer, List<String> signs) {

  /** Copies. */
  public HostEnvironment {
    signs = List.copyOf(signs);
  }

  /** Looks for the usual signs under {@code proc}'s root. */
  public static HostEnvironment detect(ProcFs proc) {
    List<String> signs = new ArrayList<>();
    if (proc.exists(".dockerenv")) {
      signs.add("/.dockerenv");
    }
    if (proc.exists("run/.containerenv")) {
      signs.add("/run/.containerenv");
    }
    proc.read("proc/1/cgroup")
        .ifPresent(
            cgroup -> {
              String lower = cgroup.toLowerCase(Locale.ROOT);
              for (String word : List.of("docker", "kubepods", "containerd", "libpod", "lxc")) {
                if (lower.contains(word)) {
                  signs.add("/proc/1/cgroup mentions " + word);
                  break;
                }
              }
            });
    return new HostEnvironment(!signs.isEmpty(), signs);
  }
}
