package io.faultline.agent.instrumentation;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * Puts the few bridge classes that advice in {@code java.base} calls onto the bootstrap class path:
 * their class files, read from the agent jar as resources (never loaded by the system class
 * loader), are written to a small temporary jar that is appended with {@link
 * Instrumentation#appendToBootstrapClassLoaderSearch}; {@code java.base} is then made to read the
 * bootstrap loader's unnamed module, which holds them, and {@code BootstrapErrors} is pointed at
 * {@link AgentErrors}. Done at most once per JVM.
 */
final class BootstrapBridge {

  /** Always on the bridge: the exception handler of every bootstrap advice calls it. */
  static final String ERRORS_CLASS = "io.faultline.bootstrap.BootstrapErrors";

  private static final Object LOCK = new Object();
  private static Set<String> installed;
  private static String failure;

  private BootstrapBridge() {}

  /**
   * Makes {@code classNames} (and {@link #ERRORS_CLASS}) loadable by the bootstrap loader; returns
   * null on success or why it could not. Classes of a later call must have been in the first.
   */
  static String install(
      Instrumentation instrumentation, ClassLoader agentLoader, List<String> classNames) {
    synchronized (LOCK) {
      Set<String> wanted = new LinkedHashSet<>();
      wanted.add(ERRORS_CLASS);
      wanted.addAll(classNames);
      if (installed != null) {
        return installed.containsAll(wanted)
            ? null
            : "the bootstrap bridge was installed without " + wanted;
      }
      if (failure != null) {
        return failure;
      }
      try {
        Path jar = writeJar(agentLoader, wanted);
        Class<?> errors;
        try {
          instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(jar.toFile()));
          errors = Class.forName(ERRORS_CLASS, true, null);
          for (String name : wanted) {
            Class.forName(name, false, null);
          }
        } finally {
          // The JVM holds the jar open and every bridge class is loaded: the file can go now, so
          // a JVM that is killed leaves nothing behind in the temporary directory.
          Files.deleteIfExists(jar);
        }
        Module bootstrapUnnamed = errors.getModule();
        instrumentation.redefineModule(
            Object.class.getModule(),
            Set.of(bootstrapUnnamed),
            Map.of(),
            Map.of(),
            Set.of(),
            Map.of());
        errors
            .getField("sink")
            .set(null, (java.util.function.BiConsumer<Throwable, String>) AgentErrors::suppressed);
        installed = wanted;
        return null;
      } catch (Exception | LinkageError e) {
        failure = "cannot put the bootstrap bridge on the bootstrap class path: " + e;
        return failure;
      }
    }
  }

  private static Path writeJar(ClassLoader agentLoader, Set<String> classNames) throws IOException {
    Path jar = Files.createTempFile("faultline-bootstrap-", ".jar");
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file)) {
      for (String name : classNames) {
        String resource = name.replace('.', '/') + ".class";
        try (InputStream in = agentLoader.getResourceAsStream(resource)) {
          if (in == null) {
            throw new IOException(resource + " is not in the agent jar");
          }
          out.putNextEntry(new JarEntry(resource));
          in.transferTo(out);
          out.closeEntry();
        }
      }
    }
    return jar;
  }
}
