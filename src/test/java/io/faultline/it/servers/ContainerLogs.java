package io.faultline.it.servers;

import java.time.Duration;
import org.testcontainers.containers.GenericContainer;

/**
 * Waiting on lines of a container's log, for restarts (Testcontainers' wait covers only the first
 * start).
 */
final class ContainerLogs {

  private ContainerLogs() {}

  static int count(GenericContainer<?> container, String text) {
    String logs = container.getLogs();
    int count = 0;
    for (int at = logs.indexOf(text); at >= 0; at = logs.indexOf(text, at + text.length())) {
      count++;
    }
    return count;
  }

  static void awaitCount(GenericContainer<?> container, String text, int count, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (count(container, text) < count) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            container.getContainerName() + " did not log '" + text + "' within " + timeout);
      }
      Sleeps.sleep(Duration.ofMillis(200));
    }
  }
}
