package io.faultline.agent.net;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.net.URLStreamHandler;
import java.util.Locale;
import java.util.Objects;

/**
 * Loads JNA, unrelocated, from the jar nested in the agent jar, isolated from the application.
 *
 * <p>JNA cannot be relocated: its native library ({@code libjnidispatch}) binds the JNI functions
 * {@code Java_com_sun_jna_Native_*} and looks up {@code com/sun/jna/...} classes by name. Nor can
 * it sit in the agent jar as {@code com/sun/jna/*.class}: it would clash with an application's own
 * JNA of another version. So the agent jar carries JNA's jar unchanged at {@value #RESOURCE}, and
 * this loader defines, child-first, {@code com.sun.jna.*} from it and the few Faultline classes
 * that call JNA (core's {@code LinuxTcpInfoReader}); everything else comes from the agent's loader.
 * The native library is served as a resource ({@code com/sun/jna/linux-x86-64/libjnidispatch.so}
 * inside the nested jar), which JNA copies to its temporary directory as it always does. The nested
 * jar is read by its central directory ({@link InMemoryZip}): an entry is inflated when it is asked
 * for, not every entry at start.
 */
final class NestedJnaLoader extends ClassLoader {

  /** Where the agent jar keeps JNA's jar. */
  static final String RESOURCE = "io/faultline/shaded/jna/jna.jar";

  /** Faultline classes that must be defined here, next to JNA, to see it. */
  static final String TCP_INFO_READER = "io.faultline.core.net.LinuxTcpInfoReader";

  static {
    ClassLoader.registerAsParallelCapable();
  }

  private final InMemoryZip entries;
  private final ClassLoader agentLoader;
  private final URLStreamHandler handler = new EntryHandler();

  private NestedJnaLoader(InMemoryZip entries, ClassLoader agentLoader) {
    super("faultline-jna", agentLoader);
    this.entries = entries;
    this.agentLoader = agentLoader;
  }

  /** A loader over the nested jar found in {@code agentLoader}; throws when it is not there. */
  static NestedJnaLoader create(ClassLoader agentLoader) throws IOException {
    Objects.requireNonNull(agentLoader, "agentLoader");
    byte[] jar;
    try (InputStream nested = agentLoader.getResourceAsStream(RESOURCE)) {
      if (nested == null) {
        throw new IOException(RESOURCE + " is not in the agent jar");
      }
      jar = nested.readAllBytes();
    }
    // JNA's jar carries its native library for 24 platforms, 5 MB in all: keep this one's only
    // (every platform's when the jar has no directory for this one, and JNA picks).
    String directory =
        nativeDirectory(System.getProperty("os.name"), System.getProperty("os.arch"));
    boolean found = false;
    for (String name : InMemoryZip.names(jar)) {
      found |= name.startsWith(directory);
    }
    boolean onlyThisPlatform = found;
    return new NestedJnaLoader(
        InMemoryZip.of(
            jar,
            name ->
                name.startsWith("com/sun/jna/")
                    && (name.endsWith(".class")
                        || !onlyThisPlatform
                        || name.startsWith(directory))),
        agentLoader);
  }

  /**
   * The directory of JNA's jar that holds the native library for {@code osName}/{@code osArch}
   * (JNA's own {@code Platform.RESOURCE_PREFIX} for the platforms the agent runs on); when the jar
   * has no such directory, every platform's library is kept and JNA picks.
   */
  static String nativeDirectory(String osName, String osArch) {
    String os = osName == null ? "" : osName.toLowerCase(Locale.ROOT);
    String arch = osArch == null ? "" : osArch.toLowerCase(Locale.ROOT);
    arch =
        switch (arch) {
          case "amd64", "x86_64" -> "x86-64";
          case "i386", "i486", "i586", "i686", "x86" -> "x86";
          case "powerpc64le" -> "ppc64le";
          default -> arch;
        };
    if (os.startsWith("linux")) {
      return "com/sun/jna/linux-" + arch + "/";
    }
    if (os.startsWith("mac") || os.startsWith("darwin")) {
      return "com/sun/jna/darwin-" + arch + "/";
    }
    if (os.startsWith("windows")) {
      return "com/sun/jna/win32-" + arch + "/";
    }
    return "com/sun/jna/" + os.replace(' ', '-') + "-" + arch + "/";
  }

  private static boolean isolated(String className) {
    return className.startsWith("com.sun.jna.")
        || className.equals(TCP_INFO_READER)
        || className.startsWith(TCP_INFO_READER + "$");
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (!isolated(name)) {
      return super.loadClass(name, resolve);
    }
    synchronized (getClassLoadingLock(name)) {
      Class<?> loaded = findLoadedClass(name);
      if (loaded == null) {
        loaded = findClass(name);
      }
      if (resolve) {
        resolveClass(loaded);
      }
      return loaded;
    }
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    String path = name.replace('.', '/') + ".class";
    byte[] bytes = readEntry(path);
    if (bytes == null && isolated(name) && !name.startsWith("com.sun.jna.")) {
      bytes = readFromAgent(path);
    }
    if (bytes == null) {
      throw new ClassNotFoundException(name);
    }
    Class<?> defined = defineClass(name, bytes, 0, bytes.length);
    // Defined once per loader (under its class-loading lock): the bytes are not needed again.
    entries.remove(path);
    return defined;
  }

  /** The nested jar's entry, or null (also when it cannot be read: the class is then not found). */
  private byte[] readEntry(String path) {
    try {
      return entries.read(path);
    } catch (IOException e) {
      return null;
    }
  }

  private byte[] readFromAgent(String path) {
    try (InputStream in = agentLoader.getResourceAsStream(path)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      return null;
    }
  }

  @Override
  public URL getResource(String name) {
    String path = name.startsWith("/") ? name.substring(1) : name;
    if (entries.contains(path)) {
      try {
        return new URL("faultline-jna", "", -1, "/" + path, handler);
      } catch (IOException e) {
        return null;
      }
    }
    return path.startsWith("com/sun/jna/") ? null : super.getResource(name);
  }

  @Override
  public InputStream getResourceAsStream(String name) {
    String path = name.startsWith("/") ? name.substring(1) : name;
    byte[] bytes = readEntry(path);
    if (bytes != null) {
      return new ByteArrayInputStream(bytes);
    }
    return path.startsWith("com/sun/jna/") ? null : super.getResourceAsStream(name);
  }

  /** Serves {@code faultline-jna:/path} URLs from the nested jar's entries. */
  private final class EntryHandler extends URLStreamHandler {
    @Override
    protected URLConnection openConnection(URL url) throws IOException {
      byte[] bytes = entries.read(url.getPath().substring(1));
      if (bytes == null) {
        throw new IOException("no entry " + url.getPath() + " in the nested JNA jar");
      }
      return new URLConnection(url) {
        @Override
        public void connect() {
          connected = true;
        }

        @Override
        public InputStream getInputStream() {
          return new ByteArrayInputStream(bytes);
        }

        @Override
        public long getContentLengthLong() {
          return bytes.length;
        }
      };
    }
  }
}
