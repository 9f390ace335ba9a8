package io.faultline.examples.demo;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the demo finds what the build made: the repository root (system property {@code
 * faultline.demo.home}, set by {@code ./demo}; otherwise found upwards from this code's location).
 */
final class DemoPaths {

  private static final String VERSION = "0.1.0-SNAPSHOT";

  private final Path home;
  private final Path code;

  private DemoPaths(Path home, Path code) {
    this.home = home;
    this.code = code;
  }

  static DemoPaths locate() {
    Path code;
    try {
      code = Path.of(DemoPaths.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    String property = System.getProperty("faultline.demo.home");
    Path home = property != null ? Path.of(property) : null;
    for (Path p = code; home == null && p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("mvnw")) && Files.isDirectory(p.resolve("agent"))) {
        home = p;
      }
    }
    if (home == null) {
      throw new IllegalStateException(
          "cannot find the Faultline repository from " + code + "; run ./demo from its root");
    }
    return new DemoPaths(home.toAbsolutePath().normalize(), code);
  }

  Path home() {
    return home;
  }

  /** This module's classes (a directory or the jar). */
  Path demoCode() {
    return code;
  }

  Path agentJar() {
    return home.resolve("agent/target/faultline-agent-" + VERSION + ".jar");
  }

  /**
   * The service's libraries: the class path file the build writes (jars in the local repository).
   */
  Path serviceClasspathFile() {
    return home.resolve("examples/demo/target/service.classpath");
  }

  Path brokerLibs() {
    return home.resolve("src/test/docker/kafka/target/broker-libs");
  }

  Path brokerStartScript() {
    return home.resolve("src/test/docker/kafka/kafka-start.sh");
  }

  /** Where a run keeps its logs and data. */
  Path work() {
    return home.resolve("examples/demo/target/run");
  }
}
