package io.faultline.it.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * A JDK to start child JVMs with: the one running the suite, then JDK 21 and JDK 25 (.ci/run
 * installs both). A column of the matrix whose JDK is not installed stays in it and is reported as
 * skipped, with where it was looked for, by {@link #assumeInstalled()} (which {@link ChildJvm#on}
 * calls), rather than silently dropped.
 */
public record Jdk(String name, Path home) {

  /** Where this machine (and CI) installs JDK 25; override with -Dfaultline.it.jdk25. */
  static final String JDK25 =
      System.getProperty("faultline.it.jdk25", "/usr/lib/jvm/temurin-25-jdk-amd64");

  /** Where .ci/run installs a JDK 21 runtime; override with -Dfaultline.it.jdk21. */
  static final String JDK21 = System.getProperty("faultline.it.jdk21", "/opt/faultline/jdk21");

  /** The feature version, e.g. 25. */
  int feature() {
    return Integer.parseInt(name.substring("jdk".length()));
  }

  /** This JDK's {@code java} launcher. */
  public Path java() {
    return home.resolve("bin").resolve("java");
  }

  /** Whether this JDK's {@code java} is there. */
  boolean installed() {
    return Files.isExecutable(java());
  }

  /** Skips the calling test, saying why, when this JDK is not installed. */
  public void assumeInstalled() {
    Assumptions.assumeTrue(
        installed(),
        () ->
            name
                + " is not installed at "
                + home
                + " (bash .ci/run installs it; -Dfaultline.it."
                + name
                + " points elsewhere): this column of the agent matrix is skipped");
  }

  /**
   * The JDK columns: {@code all} (the default) or {@code own}, the suite's JDK alone
   * (-Dfaultline.it.jdks=own; the compatibility pass's, whose subject is its versions, not the
   * other JDKs, which the main pass runs).
   */
  static final String COLUMNS = System.getProperty("faultline.it.jdks", "all");

  /**
   * The suite's own JDK, then JDK 21 and JDK 25 where of another version, installed or not (see
   * {@link #assumeInstalled()}); the suite's own alone with {@code -Dfaultline.it.jdks=own}.
   */
  public static List<Jdk> available() {
    List<Jdk> jdks = new ArrayList<>();
    Path own = Path.of(System.getProperty("java.home"));
    int ownVersion = Runtime.version().feature();
    jdks.add(new Jdk("jdk" + ownVersion, own));
    if (COLUMNS.equals("own")) {
      return jdks;
    }
    if (!COLUMNS.equals("all")) {
      throw new IllegalArgumentException(
          "-Dfaultline.it.jdks=" + COLUMNS + " is neither all (every JDK column) nor own");
    }
    addColumn(jdks, "jdk21", 21, Path.of(JDK21), ownVersion);
    addColumn(jdks, "jdk25", 25, Path.of(JDK25), ownVersion);
    return jdks;
  }

  private static void addColumn(
      List<Jdk> jdks, String name, int version, Path home, int ownVersion) {
    if (version != ownVersion) {
      jdks.add(new Jdk(name, home));
    }
  }

  /** The suite's own JDK. */
  static Jdk current() {
    return available().get(0);
  }

  @Override
  public String toString() {
    return name;
  }
}
