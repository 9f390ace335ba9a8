package io.faultline.it.agent.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes the file a test waits for: whole, then moved into place, because the test reads it as soon
 * as it exists (written in place, it can be read empty).
 */
public final class ReadyFile {

  private ReadyFile() {}

  /** Puts {@code text} at {@code target} in one step. */
  public static void write(Path target, String text) throws IOException {
    Path partial = target.resolveSibling(target.getFileName() + ".partial");
    Files.writeString(partial, text);
    Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
  }
}
