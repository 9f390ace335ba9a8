package io.faultline.agent.instrumentation;

/** Byte searches in class files, for decisions that must not parse them. */
public final class ClassFileBytes {

  private ClassFileBytes() {}

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
