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

  /** {@code examples/spring-boot-jooq}. */
  public static Path springBootExampleDir() {
    Path docs = Path.of(System.getProperty("faultline.it.docs.dir", "../../docs"));
    return docs.resolveSibling("examples").resolve("spring-boot-jooq").normalize();
  }

  /** The repackaged Spring Boot jar the build left in {@code examples/spring-boot-jooq/target}. */
  public static Path springBootExampleJar() throws java.io.IOException {
    Path target = springBootExampleDir().resolve("target");
    java.util.List<Path> jars;
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(target)) {
      jars =
          files
              .filter(p -> p.getFileName().toString().matches("faultline-example-.*\\.jar"))
              .toList();
    }
    if (jars.size() != 1) {
      throw new AssertionError(
          "expected one jar built by ./mvnw package -pl examples/spring-boot-jooq -am in "
              + target
              + ", found "
              + jars);
    }
    return jars.get(0);
  }

  /**
   * The repackaged Boot 3.5 application the build left in {@code src/test/spring-boot3-app/target}.
   */
  public static Path springBoot3AppJar() throws IOException {
    return testAppJar("spring-boot3-app");
  }

  /** The same application for Boot 4.0, from {@code src/test/spring-boot4-app/target}. */
  public static Path springBoot4AppJar() throws IOException {
    return testAppJar("spring-boot4-app");
  }

  /**
   * The start-up benchmark's Spring Boot service (no Faultline in it), from {@code
   * src/test/spring-boot-bench-app/target}.
   */
  public static Path springBootBenchAppJar() throws IOException {
    return testAppJar("spring-boot-bench-app");
  }

  private static Path testAppJar(String module) throws IOException {
    Path docs = Path.of(System.getProperty("faultline.it.docs.dir", "../../docs"));
    Path target = docs.resolveSibling("src").resolve("test/" + module + "/target").normalize();
    java.util.List<Path> jars;
    try (java.util.stream.Stream<Path> files = Files.list(target)) {
      jars =
          files
              .filter(
                  p -> p.getFileName().toString().matches("faultline-test-" + module + "-.*\\.jar"))
              .toList();
    }
    if (jars.size() != 1) {
      throw new AssertionError(
          "expected one jar built by ./mvnw package -pl src/test/"
              + module
              + " -am in "
              + target
              + ", found "
              + jars);
    }
    return jars.get(0);
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
