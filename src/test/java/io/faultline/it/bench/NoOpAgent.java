package io.faultline.it.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * An agent whose {@code premain} returns at once: the start-up benchmark's measure of what the JVM
 * itself adds for any {@code -javaagent} (it resolves {@code java.instrument} at start, which keeps
 * it from using the class-data-sharing archive's module graph), apart from what an agent then does.
 */
public final class NoOpAgent {

  private NoOpAgent() {}

  /** Does nothing. */
  public static void premain(String args, Instrumentation instrumentation) {}

  /** Writes a jar holding only this class, with a manifest naming it, to {@code dir}. */
  static Path writeJar(Path dir) {
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().putValue("Premain-Class", NoOpAgent.class.getName());
    String entry = NoOpAgent.class.getName().replace('.', '/') + ".class";
    Path jar = dir.resolve("no-op-agent.jar");
    try (InputStream in = NoOpAgent.class.getClassLoader().getResourceAsStream(entry)) {
      if (in == null) {
        throw new IllegalStateException("no " + entry + " on the class path");
      }
      Files.createDirectories(dir);
      try (OutputStream file = Files.newOutputStream(jar);
          JarOutputStream out = new JarOutputStream(file, manifest)) {
        out.putNextEntry(new JarEntry(entry));
        in.transferTo(out);
        out.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return jar;
  }
}
