package io.faultline.it.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A JDK to start child JVMs with: the one running the suite, then JDK 21 and JDK 25 when installed
 * (.ci/run installs both).
 */
record Jdk(String name, Path home) {

  /** Where this machine (and CI) installs JDK 25; override with -Dfaultline.it.jdk25. */
  static final String JDK25 =
      System.getProperty("faultline.it.jdk25", "/usr/lib/jvm/temurin-25-jdk-amd64");

  /** Where .ci/run installs a JDK 21 runtime; override with -Dfaultline.it.jdk21. */
  static final String JDK21 = System.getProperty("faultline.it.jdk21", "/opt/faultline/jdk21");

  /** The feature version, e.g. 25. */
  int feature() {
    return Integer.parseInt(name.substring("jdk".length()));
  }

  Path java() {
    return home.resolve("bin").resolve("java");
  }

  /** The suite's own JDK, then JDK 21 and JDK 25 where installed and of another version. */
  static List<Jdk> available() {
    List<Jdk> jdks = new ArrayList<>();
    Path own = Path.of(System.getProperty("java.home"));
    int ownVersion = Runtime.version().feature();
    jdks.add(new Jdk("jdk" + ownVersion, own));
    addIfInstalled(jdks, "jdk21", 21, Path.of(JDK21), ownVersion);
    addIfInstalled(jdks, "jdk25", 25, Path.of(JDK25), ownVersion);
    return jdks;
  }

  private static void addIfInstalled(
      List<Jdk> jdks, String name, int version, Path home, int ownVersion) {
    if (version != ownVersion && Files.isExecutable(home.resolve("bin/java"))) {
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
