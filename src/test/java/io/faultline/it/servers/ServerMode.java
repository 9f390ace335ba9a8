package io.faultline.it.servers;

import java.util.Locale;
import org.testcontainers.DockerClientFactory;

/**
 * Where the suite's real servers run: containers built from {@code src/test/docker} when a Docker
 * engine answers, or the same servers embedded (child processes on loopback) when none does. Chosen
 * once per test JVM; {@code -Dfaultline.it.mode=docker|embedded} forces one.
 */
public enum ServerMode {
  /** Containers from the project's own images; every test can run. */
  DOCKER,
  /** Child processes on this host; tests that need containers are skipped with the reason. */
  EMBEDDED;

  private static volatile ServerMode current;

  /** The mode of this test JVM, detected (and announced on stdout) the first time it is asked. */
  public static ServerMode current() {
    ServerMode mode = current;
    if (mode == null) {
      synchronized (ServerMode.class) {
        if (current == null) {
          current = detect();
        }
        mode = current;
      }
    }
    return mode;
  }

  private static ServerMode detect() {
    String forced = System.getProperty("faultline.it.mode", "auto").trim().toLowerCase(Locale.ROOT);
    boolean docker =
        !forced.equals("embedded") && DockerClientFactory.instance().isDockerAvailable();
    if (forced.equals("docker") && !docker) {
      throw new IllegalStateException(
          "-Dfaultline.it.mode=docker but no Docker engine answers: start dockerd (see .ci/run)"
              + " or drop the flag to run the servers embedded");
    }
    ServerMode mode = docker ? DOCKER : EMBEDDED;
    String why =
        docker
            ? "Docker engine "
                + DockerClientFactory.instance().getInfo().getServerVersion()
                + " answers"
            : forced.equals("embedded")
                ? "-Dfaultline.it.mode=embedded"
                : "no Docker engine answers; container-only tests will be skipped";
    System.out.println("[faultline-it] real servers run in " + mode + " mode (" + why + ")");
    return mode;
  }
}
