package io.faultline.agent.instrumentation;

/** Class files as bytes, read as resources (searched with {@link BytePattern}). */
final class ClassFileBytes {

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
}
