package io.faultline.examples.demo;

/**
 * How a scene went.
 *
 * @param found whether Faultline showed what the scene expected
 * @param skipped why the scene did not run, or null when it ran
 * @param keyFigure the number that tells the story, for the summary table
 */
record SceneOutcome(boolean found, String skipped, String keyFigure) {

  static SceneOutcome found(String keyFigure) {
    return new SceneOutcome(true, null, keyFigure);
  }

  static SceneOutcome missed(String why) {
    return new SceneOutcome(false, null, why);
  }

  static SceneOutcome skipped(String why) {
    return new SceneOutcome(false, why, "");
  }

  boolean ran() {
    return skipped == null;
  }
}
