package io.faultline.agent.instrumentation;

/** Class files as bytes: read as resources, searched for decisions that must not parse them. */
public final class ClassFileBytes {

  private ClassFileBytes() {}

  /**
   * The class file of {@code internalName} as {@code loader} finds it as a resource (never loading
   * the class), or null when it has none or it cannot be read.
   */
  static byte[] read(ClassLoader loader, String internalName) {
    try (java.io.InputStream in = loader.getResourceAsStream(internalName + ".class")) {
      return in == null ? null : in.readAllBytes();
    } catch (java.io.IOException e) {
      return null;
    }
  }

  /** Whether {@code pattern} occurs in {@code classFile} (false for a null class file). */
  public static boolean contains(byte[] classFile, byte[] pattern) {
    if (classFile == null || pattern.length == 0) {
      return false;
    }
    byte first = pattern[0];
    int last = classFile.length - pattern.length;
    outer:
    for (int i = 0; i <= last; i++) {
      if (classFile[i] != first) {
        continue;
      }
      for (int j = 1; j < pattern.length; j++) {
        if (classFile[i + j] != pattern[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
