package io.faultline.it.servers;

import com.github.dockerjava.api.DockerClient;

/**
 * The image the project's Dockerfiles start {@code FROM}. A user with registry access gets {@code
 * debian:bookworm-slim}; where no registry is reachable, {@code .ci/run} imports a debootstrapped
 * Debian as {@code faultline-base:bookworm}, which is used when the official one is not present.
 */
public final class BaseImage {

  static final String OFFICIAL = "debian:bookworm-slim";
  static final String LOCAL = "faultline-base:bookworm";

  private BaseImage() {}

  /**
   * The base image to build FROM: configured, else the official one if present, else the local one.
   */
  public static String resolve(DockerClient docker) {
    String configured = System.getProperty("faultline.it.base-image");
    if (configured == null || configured.isBlank()) {
      configured = System.getenv("FAULTLINE_BASE_IMAGE");
    }
    if (configured != null && !configured.isBlank()) {
      return configured.trim();
    }
    if (LocalImages.exists(docker, OFFICIAL)) {
      return OFFICIAL;
    }
    if (LocalImages.exists(docker, LOCAL)) {
      return LOCAL;
    }
    return OFFICIAL;
  }
}
