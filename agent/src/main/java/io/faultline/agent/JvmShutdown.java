package io.faultline.agent;

/**
 * Whether the JVM is exiting. A task of the agent's that fails then (JNA, for one, cannot load once
 * shutdown hooks run: it registers a file to delete on exit) fails because of the exit, not because
 * of a fault worth a line on stderr.
 */
final class JvmShutdown {

  private JvmShutdown() {}

  /**
   * True once the JVM has begun running its shutdown hooks. Only for a failure's path: it spins a
   * thread object.
   */
  static boolean inProgress() {
    Thread probe = new Thread(() -> {}, "faultline-shutdown-probe");
    try {
      Runtime.getRuntime().addShutdownHook(probe);
      Runtime.getRuntime().removeShutdownHook(probe);
      return false;
    } catch (IllegalStateException shuttingDown) {
      return true;
    } catch (RuntimeException other) {
      // A security manager that refuses hooks: not a shutdown.
      return false;
    }
  }
}
