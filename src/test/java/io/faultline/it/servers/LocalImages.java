package io.faultline.it.servers;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * Builds the project's server images from {@code src/test/docker/*} once and reuses them: the tag
 * is a hash of the build context, so an image is rebuilt only when its Dockerfile, scripts or jars
 * change, and never twice in one run.
 */
public final class LocalImages {

  /** What {@link #ensure} did, so tests can show the image was reused. */
  public enum Outcome {
    BUILT,
    REUSED
  }

  private static final Map<String, Outcome> ENSURED = new ConcurrentHashMap<>();

  private LocalImages() {}

  /** The PostgreSQL image, built if missing. */
  public static String postgres() {
    return ensure("postgres", TestPaths.postgresDockerDir());
  }

  /** The Kafka broker image, built if missing. */
  public static String kafka() {
    return ensure("kafka", TestPaths.kafkaDockerDir());
  }

  /**
   * The Kafka broker image laid out as {@code apache/kafka} and {@code confluentinc/cp-kafka} are,
   * for Testcontainers' own {@code KafkaContainer} and {@code ConfluentKafkaContainer}: built FROM
   * {@link #kafka()}, so it follows it and downloads nothing.
   */
  public static String kafkaWithOfficialLayout() {
    String base = kafka();
    return ensure(
        "kafka-official-layout",
        TestPaths.kafkaDockerDir().resolveSibling("kafka-apache-layout"),
        Map.of("KAFKA_IMAGE", base));
  }

  /** What happened the first time {@code tag} was ensured in this JVM, or null if never. */
  public static Outcome outcome(String tag) {
    return ENSURED.get(tag);
  }

  /**
   * Ensures the Kafka ({@code "kafka"}) or PostgreSQL image as a new run would, forgetting that
   * this JVM ensured it: {@link Outcome#REUSED} when Docker has it, so nothing is rebuilt across
   * runs.
   */
  public static synchronized Outcome ensureAsANewRun(String name) {
    Path context =
        switch (name) {
          case "kafka" -> TestPaths.kafkaDockerDir();
          case "postgres" -> TestPaths.postgresDockerDir();
          default -> throw new IllegalArgumentException(name);
        };
    String tag = tag(name, context);
    ENSURED.remove(tag);
    ensure(name, context);
    return ENSURED.get(tag);
  }

  /** The image's id in Docker (changes when it is rebuilt). */
  public static String imageId(String tag) {
    return DockerClientFactory.instance().client().inspectImageCmd(tag).exec().getId();
  }

  /** The tag an image built from {@code context} gets: the name and a hash of the context. */
  public static String tag(String name, Path context) {
    return "faultline-it/" + name + ":" + contextHash(context);
  }

  static synchronized String ensure(String name, Path context) {
    return ensure(name, context, Map.of());
  }

  /** Builds with {@code args} as build arguments; a derived image's base tag is one of them. */
  static synchronized String ensure(String name, Path context, Map<String, String> args) {
    String tag = tag(name, context);
    if (!args.isEmpty()) {
      // The base image's tag carries its own content hash: a new base means a new derived image.
      tag += "-" + Integer.toHexString(new java.util.TreeMap<>(args).toString().hashCode());
    }
    if (ENSURED.containsKey(tag)) {
      return tag;
    }
    DockerClient docker = DockerClientFactory.instance().client();
    if (exists(docker, tag)) {
      ENSURED.put(tag, Outcome.REUSED);
      System.out.println("[faultline-it] reusing image " + tag);
      return tag;
    }
    String base = args.getOrDefault("KAFKA_IMAGE", BaseImage.resolve(docker));
    System.out.println("[faultline-it] building image " + tag + " from " + base + " ...");
    long start = System.nanoTime();
    try {
      ImageFromDockerfile image =
          new ImageFromDockerfile(tag, false)
              .withDockerfile(context.resolve("Dockerfile"))
              .withBuildArg("BASE_IMAGE", base);
      args.forEach(image::withBuildArg);
      image.get();
    } catch (Exception e) {
      throw new IllegalStateException(
          "could not build "
              + tag
              + " from base image "
              + base
              + ". Where no registry is reachable, create a local base image (bash .ci/run does:"
              + " debootstrap --variant=minbase bookworm, then docker import as faultline-base:bookworm)"
              + " or set FAULTLINE_BASE_IMAGE.",
          e);
    }
    ENSURED.put(tag, Outcome.BUILT);
    System.out.printf(
        "[faultline-it] built image %s in %.1f s%n", tag, (System.nanoTime() - start) / 1e9);
    return tag;
  }

  static boolean exists(DockerClient docker, String image) {
    try {
      docker.inspectImageCmd(image).exec();
      return true;
    } catch (NotFoundException e) {
      return false;
    }
  }

  /**
   * A hash of every file the image is built from (jars by name and size: hashing 44 MB is slow).
   */
  private static String contextHash(Path context) {
    try (Stream<Path> walk = Files.walk(context)) {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      List<Path> files =
          walk.filter(Files::isRegularFile).filter(p -> isInContext(context, p)).sorted().toList();
      for (Path file : files) {
        digest.update(context.relativize(file).toString().getBytes());
        if (file.toString().endsWith(".jar")) {
          digest.update(Long.toString(Files.size(file)).getBytes());
        } else {
          digest.update(Files.readAllBytes(file));
        }
      }
      return HexFormat.of().formatHex(digest.digest()).substring(0, 12);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean isInContext(Path context, Path file) {
    Path rel = context.relativize(file);
    if (rel.startsWith("target")) {
      return rel.startsWith(Path.of("target", "broker-libs"));
    }
    return true;
  }
}
