package io.faultline.it.agent;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * A fresh network namespace per child JVM ({@code unshare --net}, loopback brought up), gone when
 * the child exits: its sockets, TIME_WAIT ones included, are counted apart from the host's.
 */
final class NetworkNamespace {

  private static final String[] COMMAND = {
    "unshare", "--net", "sh", "-c", "ip link set lo up && exec \"$@\"", "sh"
  };

  private static String why = "not checked";

  private NetworkNamespace() {}

  /** The prefix that runs a command in a fresh namespace. */
  static String[] command() {
    return COMMAND.clone();
  }

  /** Whether this machine can make one (root, or a user namespace allowed). */
  static synchronized boolean available() {
    try {
      String[] probe = new String[COMMAND.length + 1];
      System.arraycopy(COMMAND, 0, probe, 0, COMMAND.length);
      probe[COMMAND.length] = "true";
      Process process = new ProcessBuilder(probe).redirectErrorStream(true).start();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        why = "unshare did not finish";
        return false;
      }
      why = new String(process.getInputStream().readAllBytes()).strip();
      return process.exitValue() == 0;
    } catch (IOException e) {
      why = e.toString();
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** What the last probe said. */
  static synchronized String why() {
    return why;
  }
}
