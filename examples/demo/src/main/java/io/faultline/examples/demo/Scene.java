package io.faultline.examples.demo;

import java.util.Optional;

/** One incident, repeated on purpose by the service and checked against what Faultline found. */
interface Scene {

  /** The name for {@code --scene}. */
  String name();

  /** What happens, in a few words. */
  String title();

  /** The incident it repeats. */
  String incident();

  /** What Faultline should show: a finding id, or a meter for scenes whose proof is a number. */
  String expected();

  /** Whether the scene needs the Kafka broker. */
  default boolean needsKafka() {
    return false;
  }

  /** Why the scene cannot run here, if it cannot. */
  default Optional<String> skipReason(DemoContext context) {
    return Optional.empty();
  }

  /** Plays the scene and says what was found. */
  SceneOutcome play(DemoContext context);
}
