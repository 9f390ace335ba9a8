package io.faultline.testcontainers;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.ContainerState;

/**
 * Runs network tools ({@code nft}, {@code tc}, {@code sh}) in a container's network namespace, the
 * one way that works: as root inside the container when its image has the tools and the container
 * holds {@code NET_ADMIN}, else from the host through {@code nsenter} when this JVM runs as root on
 * the Docker host with the tools installed. Everything written to the namespace is gone when the
 * container stops, so nothing outlives it.
 */
final class NamespaceShell {

  /** Where the commands run. */
  enum Via {
    CONTAINER,
    HOST
  }

  private final ContainerState container;
  private final Via via;
  private final String pid;

  private NamespaceShell(ContainerState container, Via via, String pid) {
    this.container = container;
    this.via = via;
    this.pid = pid;
  }

  /**
   * A shell for {@code fault}, which needs {@code tools}; fails naming what is missing and how to
   * fix it when neither way works.
   */
  static NamespaceShell forFault(
      ContainerState container, String fault, boolean allowHost, String... tools) {
    InspectContainerResponse info = inspect(container);
    if (info.getState() == null || !Boolean.TRUE.equals(info.getState().getRunning())) {
      throw new IllegalStateException(
          fault + ": container " + name(info) + " is not running; start it first");
    }
    List<String> missingInside = missingInContainer(container, tools);
    boolean netAdmin = hasNetAdmin(info.getHostConfig());
    if (missingInside.isEmpty() && netAdmin) {
      return new NamespaceShell(container, Via.CONTAINER, null);
    }
    String pid = String.valueOf(info.getState().getPidLong());
    List<String> hostProblems =
        allowHost ? hostProblems(pid, info.getId(), tools) : List.of("not allowed");
    if (hostProblems.isEmpty()) {
      return new NamespaceShell(container, Via.HOST, pid);
    }
    StringBuilder why = new StringBuilder(fault).append(" cannot change container ");
    why.append(name(info)).append("'s network namespace:");
    if (!netAdmin) {
      why.append(
          "\n  - the container lacks the NET_ADMIN capability. Create it with"
              + " KafkaFaults.prepare(container) before start() (it adds --cap-add NET_ADMIN), or"
              + " withCreateContainerCmdModifier(c -> c.getHostConfig().withCapAdd(Capability.NET_ADMIN)).");
    }
    if (!missingInside.isEmpty()) {
      why.append("\n  - its image has no ")
          .append(String.join(", ", missingInside))
          .append(
              ". Add them to the image (Debian: apt-get install iproute2 nftables; Alpine: apk add"
                  + " iproute2 nftables; UBI: microdnf install iproute-tc nftables).");
    }
    if (allowHost) {
      why.append("\n  - it cannot be entered from the host (")
          .append(String.join("; ", hostProblems))
          .append("): that needs this JVM on the Docker host as root, with nsenter and ")
          .append(String.join(", ", tools))
          .append(" installed.");
    }
    throw new IllegalStateException(why.toString());
  }

  /** Where this shell runs its commands. */
  Via via() {
    return via;
  }

  /** Runs {@code command}; returns its output, or fails with the command and what it printed. */
  String run(String... command) {
    if (via == Via.CONTAINER) {
      ExecResult result = exec(container, command);
      if (result.getExitCode() != 0) {
        throw new IllegalStateException(
            String.join(" ", command)
                + " failed in the container ("
                + result.getExitCode()
                + "): "
                + result.getStderr().trim()
                + permissionHint(result.getStderr()));
      }
      return result.getStdout();
    }
    List<String> full = new ArrayList<>(List.of("nsenter", "-t", pid, "-n"));
    full.addAll(Arrays.asList(command));
    return host(full.toArray(String[]::new));
  }

  /** Like {@link #run}, for undoing: a failure is printed, not thrown (the first error counts). */
  void runQuietly(String... command) {
    try {
      run(command);
    } catch (RuntimeException e) {
      System.err.println("[faultline] could not undo a fault: " + e.getMessage());
    }
  }

  private static String permissionHint(String stderr) {
    String s = stderr.toLowerCase(java.util.Locale.ROOT);
    if (s.contains("not permitted") || s.contains("read-only")) {
      return " — the engine did not grant it: create the container with KafkaFaults.prepare(container)"
          + " (NET_ADMIN, and the sysctls a fault needs set at creation); a rootless or"
          + " user-namespaced engine may refuse it anyway";
    }
    return "";
  }

  static boolean hasNetAdmin(HostConfig hostConfig) {
    if (hostConfig == null) {
      return false;
    }
    if (Boolean.TRUE.equals(hostConfig.getPrivileged())) {
      return true;
    }
    Capability[] added = hostConfig.getCapAdd();
    return added != null
        && Arrays.stream(added).anyMatch(c -> c == Capability.NET_ADMIN || c == Capability.ALL);
  }

  private static List<String> missingInContainer(ContainerState container, String... tools) {
    List<String> missing = new ArrayList<>();
    for (String tool : tools) {
      ExecResult r = exec(container, "sh", "-c", "command -v " + tool);
      if (r.getExitCode() != 0) {
        missing.add(tool);
      }
    }
    return missing;
  }

  private static List<String> hostProblems(String pid, String containerId, String... tools) {
    List<String> problems = new ArrayList<>();
    if (!isRoot()) {
      problems.add("this JVM is not root");
    }
    if (!isContainersProcess(pid, containerId)) {
      problems.add("the container's process " + pid + " is not on this host");
    }
    List<String> wanted = new ArrayList<>(List.of("nsenter"));
    wanted.addAll(Arrays.asList(tools));
    for (String tool : wanted) {
      if (!tool.equals("sh") && !onPath(tool)) {
        problems.add("no " + tool + " on the PATH");
      }
    }
    return problems;
  }

  /**
   * Whether process {@code pid} here is the container's: with a remote engine (or one in a VM) the
   * engine's pid names some unrelated local process, whose namespace must not be touched. Its
   * control groups name the container (e.g. {@code /docker/<id>}, {@code docker-<id>.scope}).
   */
  private static boolean isContainersProcess(String pid, String containerId) {
    try {
      return Files.exists(Path.of("/proc", pid, "ns", "net"))
          && Files.readString(Path.of("/proc", pid, "cgroup")).contains(containerId);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static boolean isRoot() {
    try {
      return Files.readString(Path.of("/proc/self/status"))
          .lines()
          .filter(l -> l.startsWith("Uid:"))
          .anyMatch(l -> l.split("\\s+")[2].equals("0"));
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean onPath(String tool) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    List<String> dirs = new ArrayList<>(Arrays.asList(path.split(":")));
    dirs.addAll(List.of("/usr/sbin", "/sbin"));
    return dirs.stream().anyMatch(d -> Files.isExecutable(Path.of(d, tool)));
  }

  static InspectContainerResponse inspect(ContainerState container) {
    String id = container.getContainerId();
    if (id == null) {
      throw new IllegalStateException("the container has not been started");
    }
    return container.getDockerClient().inspectContainerCmd(id).exec();
  }

  static String name(InspectContainerResponse info) {
    String name = info.getName();
    return name == null ? info.getId().substring(0, 12) : name.replaceFirst("^/", "");
  }

  private static ExecResult exec(ContainerState container, String... command) {
    try {
      return container.execInContainerWithUser("0", command);
    } catch (IOException e) {
      throw new IllegalStateException(String.join(" ", command) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(String.join(" ", command) + ": interrupted", e);
    }
  }

  private static String host(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " did not finish in 30 s");
      }
      if (p.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", command) + " failed: " + out.trim());
      }
      return out;
    } catch (IOException e) {
      throw new IllegalStateException(String.join(" ", command) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(String.join(" ", command) + ": interrupted", e);
    }
  }
}
