package io.faultline.it.servers;

import java.io.IOException;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;

/** Runs a command in a container and returns its output, failing loudly when it fails. */
final class ContainerExec {

  private ContainerExec() {}

  static String run(GenericContainer<?> container, String... command) {
    try {
      ExecResult result = container.execInContainer(command);
      if (result.getExitCode() != 0) {
        throw new IllegalStateException(
            String.join(" ", command) + " failed in container: " + result.getStderr());
      }
      return result.getStdout();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
