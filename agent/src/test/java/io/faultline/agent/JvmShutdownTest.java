package io.faultline.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class JvmShutdownTest {

  @Test
  void aRunningJvmIsNotShuttingDown() {
    assertFalse(JvmShutdown.inProgress());
    assertFalse(JvmShutdown.inProgress(), "the probe leaves no hook behind to trip the next call");
  }

  @Test
  void aShutdownHookSeesTheShutdown() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process child =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                HookMain.class.getName())
            .redirectErrorStream(true)
            .start();
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    child.waitFor(30, TimeUnit.SECONDS);
    assertEquals("before exit: false\nin a shutdown hook: true\n", out);
  }

  /** Prints what the probe says before the exit and inside a shutdown hook. */
  static final class HookMain {
    public static void main(String[] args) {
      System.out.print("before exit: " + JvmShutdown.inProgress() + "\n");
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    System.out.print("in a shutdown hook: " + JvmShutdown.inProgress() + "\n");
                    System.out.flush();
                  }));
    }
  }
}
