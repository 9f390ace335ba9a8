package io.faultline.agent.instrumentation;

import io.faultline.core.Loggers;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * Puts the few bridge classes that advice in {@code java.base} calls into the bootstrap class
 * loader. Their class files are read from the agent jar as resources (never loaded by the system
 * class loader) and defined in the bootstrap loader directly ({@link BootLoaderDefiner}), so the
 * bootstrap class path stays as the JVM started with it: appending to it makes the JVM print
 * "Sharing is only supported for boot loader classes because bootstrap classpath has been appended"
 * and stop using class data sharing for every class loaded afterwards by other loaders. Where that
 * is refused (a JVM without {@code jdk.internal.misc.Unsafe.defineClass}), they are written to a
 * small temporary jar appended with {@link Instrumentation#appendToBootstrapClassLoaderSearch}
 * instead. {@code java.base} is then made to read the bootstrap loader's unnamed module, which
 * holds them, and {@code BootstrapErrors} is pointed at {@link AgentErrors}. Done at most once per
 * JVM.
 */
final class BootstrapBridge {

  /** Always on the bridge: the exception handler of every bootstrap advice calls it. */
  static final String ERRORS_CLASS = "io.faultline.bootstrap.BootstrapErrors";

  private static final System.Logger LOG = Loggers.get(BootstrapBridge.class.getName());

  // By name: a class literal would load it in the agent's loader too.
  private static final String DEFINER_CLASS =
      "io.faultline.agent.instrumentation.BootLoaderDefiner";

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
        Map<String, byte[]> classFiles = readClassFiles(agentLoader, wanted);
        Class<?> errors;
        String refused = defineInBootLoader(instrumentation, agentLoader, classFiles);
        if (refused == null) {
          errors = Class.forName(ERRORS_CLASS, true, null);
        } else {
          LOG.log(
              System.Logger.Level.INFO,
              "faultline: the bootstrap bridge goes on the bootstrap class path, so this JVM's"
                  + " class data sharing is limited to the JDK's classes: "
                  + refused);
          errors = appendToBootClassPath(instrumentation, classFiles);
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
        failure = "cannot put the bootstrap bridge into the bootstrap loader: " + e;
        return failure;
      }
    }
  }

  private static Map<String, byte[]> readClassFiles(ClassLoader agentLoader, Set<String> names)
      throws IOException {
    Map<String, byte[]> classFiles = new LinkedHashMap<>();
    for (String name : names) {
      classFiles.put(name, readClassFile(agentLoader, name));
    }
    return classFiles;
  }

  private static byte[] readClassFile(ClassLoader agentLoader, String name) throws IOException {
    String resource = name.replace('.', '/') + ".class";
    try (InputStream in = agentLoader.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException(resource + " is not in the agent jar");
      }
      return in.readAllBytes();
    }
  }

  /**
   * Defines the classes in the bootstrap loader through {@link BootLoaderDefiner}, itself defined
   * in a class loader of its own so that {@code jdk.internal.misc} is exported to nothing else;
   * returns null on success or why not. A class the bootstrap loader already has (a second copy of
   * the agent) is used as it is.
   */
  private static String defineInBootLoader(
      Instrumentation instrumentation, ClassLoader agentLoader, Map<String, byte[]> classFiles) {
    Class<?> definer;
    try {
      definer =
          new DefinerLoader().define(DEFINER_CLASS, readClassFile(agentLoader, DEFINER_CLASS));
      Module base = Object.class.getModule();
      instrumentation.redefineModule(
          base,
          Set.of(),
          Map.of("jdk.internal.misc", Set.of(definer.getModule())),
          Map.of(),
          Set.of(),
          Map.of());
    } catch (IOException | RuntimeException | LinkageError e) {
      return "cannot prepare the definer: " + e;
    }
    for (Map.Entry<String, byte[]> classFile : classFiles.entrySet()) {
      try {
        definer
            .getMethod("define", String.class, byte[].class)
            .invoke(null, classFile.getKey(), classFile.getValue());
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        if (!bootLoaderHas(classFile.getKey())) {
          Throwable cause = e instanceof InvocationTargetException i ? i.getCause() : e;
          return "cannot define " + classFile.getKey() + ": " + cause;
        }
      }
    }
    return null;
  }

  private static boolean bootLoaderHas(String name) {
    try {
      Class.forName(name, false, null);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private static Class<?> appendToBootClassPath(
      Instrumentation instrumentation, Map<String, byte[]> classFiles)
      throws IOException, ClassNotFoundException {
    Path jar = writeJar(classFiles);
    try {
      instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(jar.toFile()));
      Class<?> errors = Class.forName(ERRORS_CLASS, true, null);
      for (String name : classFiles.keySet()) {
        Class.forName(name, false, null);
      }
      return errors;
    } finally {
      // The JVM holds the jar open and every bridge class is loaded: the file can go now, so a
      // JVM that is killed leaves nothing behind in the temporary directory.
      Files.deleteIfExists(jar);
    }
  }

  private static Path writeJar(Map<String, byte[]> classFiles) throws IOException {
    Path jar = Files.createTempFile("faultline-bootstrap-", ".jar");
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file)) {
      for (Map.Entry<String, byte[]> classFile : classFiles.entrySet()) {
        out.putNextEntry(new JarEntry(classFile.getKey().replace('.', '/') + ".class"));
        out.write(classFile.getValue());
        out.closeEntry();
      }
    }
    return jar;
  }

  /** The loader of {@link BootLoaderDefiner} alone: its unnamed module is what gets the export. */
  private static final class DefinerLoader extends ClassLoader {

    DefinerLoader() {
      super("faultline-boot-definer", null);
    }

    Class<?> define(String name, byte[] bytes) {
      return defineClass(name, bytes, 0, bytes.length);
    }
  }
}
