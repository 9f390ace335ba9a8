package io.faultline.it.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A JDK to start child JVMs with: the one running the suite, and JDK 25 when installed. */
record Jdk(String name, Path home) {

  /** Where this machine (and CI) installs JDK 25; override with -Dfaultline.it.jdk25. */
  static final String JDK25 =
      System.getProperty("faultline.it.jdk25", "/usr/lib/jvm/temurin-25-jdk-amd64");

  Path java() {
    return home.resolve("bin").resolve("java");
  }

  /** The suite's own JDK, then JDK 25 if it is installed and different. */
  static List<Jdk> available() {
    List<Jdk> jdks = new ArrayList<>();
    Path own = Path.of(System.getProperty("java.home"));
    jdks.add(new Jdk("jdk" + Runtime.version().feature(), own));
    Path jdk25 = Path.of(JDK25);
    if (Files.isExecutable(jdk25.resolve("bin/java")) && !jdk25.equals(own)) {
      jdks.add(new Jdk("jdk25", jdk25));
    }
    return jdks;
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
