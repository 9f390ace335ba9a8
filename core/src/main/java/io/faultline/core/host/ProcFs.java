package io.faultline.core.host;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads {@code /proc} and {@code /sys} under a root directory: {@code /} on a live host, a recorded
 * fixture tree in tests. Every read is optional: a file that is missing or unreadable is an empty
 * result, never an exception, because a doctor that crashes on an unusual kernel helps nobody.
 *
 * <p>Paths are relative to the root and written without a leading slash, e.g. {@code
 * proc/sys/net/ipv4/tcp_syncookies}.
 */
public final class ProcFs {

  private final Path root;
  private final String netDir;

  private ProcFs(Path root, String netDir) {
    this.root = Objects.requireNonNull(root, "root");
    this.netDir = netDir;
  }

  /** The live host (root {@code /}). */
  public static ProcFs system() {
    return new ProcFs(Paths.get("/"), "proc/net");
  }

  /** A tree under {@code root} laid out like {@code /} (with {@code proc/} and {@code sys/}). */
  public static ProcFs at(Path root) {
    return new ProcFs(root, "proc/net");
  }

  /**
   * The same tree, but {@code proc/net/*} files are read from {@code proc/PID/net/}: the network
   * namespace of process {@code pid}, e.g. a container's or a lab namespace's server. Sysctls are
   * still those of the reader's own namespace.
   */
  public ProcFs withNetworkNamespaceOf(long pid) {
    return new ProcFs(root, "proc/" + pid + "/net");
  }

  /** The root directory. */
  public Path root() {
    return root;
  }

  /** Where {@code proc/net} files are read from, relative to the root. */
  public String netDirectory() {
    return netDir;
  }

  /** Whether {@code relative} exists (a symlink counts even if dangling). */
  public boolean exists(String relative) {
    Path p = root.resolve(relative);
    return Files.exists(p) || Files.isSymbolicLink(p);
  }

  /** The whole text of {@code relative}, or empty. */
  public Optional<String> read(String relative) {
    // Not Files.readString: /proc files report size 0, so it starts with a tiny read, and integer
    // sysctls answer a read at a non-zero offset with EOF ("4096" came back as "4").
    try (InputStream in = Files.newInputStream(root.resolve(relative))) {
      return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * A {@code proc/net} file ({@code netstat}, {@code snmp}, {@code sockstat}), honouring the pid.
   */
  public Optional<String> net(String name) {
    return read(netDir + "/" + name);
  }

  /** The raw text of a sysctl by its dotted name, e.g. {@code net.ipv4.tcp_syncookies}, trimmed. */
  public Optional<String> sysctlText(String dotted) {
    return read("proc/sys/" + dotted.replace('.', '/')).map(String::trim);
  }

  /** A sysctl's numbers ({@code tcp_rmem} has three); empty when missing or not all numbers. */
  public Optional<long[]> sysctlNumbers(String dotted) {
    Optional<String> text = sysctlText(dotted);
    if (text.isEmpty() || text.get().isEmpty()) {
      return Optional.empty();
    }
    String[] parts = text.get().split("\\s+");
    long[] values = new long[parts.length];
    try {
      for (int i = 0; i < parts.length; i++) {
        values[i] = Long.parseLong(parts[i]);
      }
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    return Optional.of(values);
  }

  /** A single-number sysctl. */
  public OptionalLong sysctl(String dotted) {
    Optional<long[]> values = sysctlNumbers(dotted);
    return values.isPresent() && values.get().length >= 1
        ? OptionalLong.of(values.get()[0])
        : OptionalLong.empty();
  }

  /** The names in directory {@code relative}, sorted; empty when it does not exist. */
  public List<String> list(String relative) {
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(root.resolve(relative))) {
      for (Path p : dir) {
        names.add(p.getFileName().toString());
      }
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
    Collections.sort(names);
    return names;
  }

  @Override
  public String toString() {
    return "ProcFs[" + root + (netDir.equals("proc/net") ? "" : ", net=" + netDir) + "]";
  }
}
