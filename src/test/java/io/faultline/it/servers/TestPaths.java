package io.faultline.it.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Folders the build hands the suite through system properties (see src/test/pom.xml). */
public final class TestPaths {

  private TestPaths() {}

  /** {@code src/test/docker/kafka}: Dockerfile, start script, and target/broker-libs. */
  public static Path kafkaDockerDir() {
    return dir("faultline.it.kafka.dir");
  }

  /** {@code src/test/docker/postgres}. */
  public static Path postgresDockerDir() {
    return dir("faultline.it.postgres.dir");
  }

  /** A fresh folder under the suite's {@code target/servers} for one server's data and logs. */
  public static Path workDir(String name) {
    Path root = Path.of(System.getProperty("faultline.it.work.dir", "target/servers"));
    try {
      Files.createDirectories(root);
      return Files.createTempDirectory(root, name + "-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path dir(String property) {
    String value = System.getProperty(property);
    if (value == null) {
      throw new IllegalStateException(
          property + " is not set: run the suite through Maven (./mvnw verify), which sets it");
    }
    return Path.of(value).toAbsolutePath();
  }
}
