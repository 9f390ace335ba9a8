package io.faultline.junit;

/** How an observation came to be charged to a test. */
enum Attribution {
  /** Reported on the thread running the test (its callbacks, set-up and body). */
  TEST_THREAD,
  /**
   * Reported on another thread (a pool, a server's request thread) while this was the only test
   * running: sound in a sequential run for the work the test waited on.
   */
  ONLY_TEST_RUNNING
}
