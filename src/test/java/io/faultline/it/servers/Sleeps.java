package io.faultline.it.servers;

import java.time.Duration;

/** Sleeping in a poll loop without swallowing interrupts. */
final class Sleeps {

  private Sleeps() {}

  static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
