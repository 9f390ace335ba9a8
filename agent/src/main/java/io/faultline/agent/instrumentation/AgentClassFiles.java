package io.faultline.agent.instrumentation;

import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.zip.ZipFile;

/**
 * Where the installer reads the class files of the advice it inlines and of the bootstrap bridge:
 * the agent's jar (or class directory) first, read directly. The loader that defined the agent
 * finds them too, but only after a lookup in every entry of the application's class path (the
 * agent's jar is appended at its end), and those lookups, a few thousand at every start, were
 * enough to make the JDK's zip lookup hot and have C2 compile it during the application's start-up.
 * A jar file of its own reads an entry without the {@code jar:} URL, the URL connection and the jar
 * file opened per read that a {@code URLClassLoader} over the jar used. A class file the agent's
 * code does not have (the advice of a module shipped in another jar on the class path) is looked up
 * through the agent's loader.
 *
 * <p>Only resources are read through {@link #loader()}; no class is ever loaded from it. Closed
 * once the modules are installed.
 */
public final class AgentClassFiles implements AutoCloseable {

  private final ClassLoader loader;

  private AgentClassFiles(ClassLoader loader) {
    this.loader = loader;
  }

  /**
   * Reads from {@code agentCode} (the agent's jar or class directory), then from {@code
   * agentLoader}; when that location is unknown or not a local file, from {@code agentLoader}
   * alone.
   */
  public static AgentClassFiles of(URL agentCode, ClassLoader agentLoader) {
    Path path = localPath(agentCode);
    if (path == null) {
      return new AgentClassFiles(agentLoader);
    }
    if (Files.isDirectory(path)) {
      return new AgentClassFiles(new CodeFirst(agentCode, null, path, agentLoader));
    }
    try {
      // Versioned as the agent's loader reads it (the jar is multi-release). A jar file of its
      // own: closing it leaves the JVM's copy, which the agent's loader reads, open.
      JarFile jar = new JarFile(path.toFile(), false, ZipFile.OPEN_READ, Runtime.version());
      return new AgentClassFiles(new CodeFirst(agentCode, jar, null, agentLoader));
    } catch (IOException | RuntimeException e) {
      return new AgentClassFiles(agentLoader);
    }
  }

  private static Path localPath(URL code) {
    if (code == null || !"file".equals(code.getProtocol())) {
      return null;
    }
    try {
      return Path.of(code.toURI());
    } catch (URISyntaxException | RuntimeException e) {
      return null;
    }
  }

  /** Resources from the agent's jar or directory, then from a fallback loader; no parent. */
  private static final class CodeFirst extends ClassLoader {

    static {
      registerAsParallelCapable();
    }

    private final URL code;
    private final JarFile jar;
    private final Path directory;
    private final ClassLoader fallback;

    CodeFirst(URL code, JarFile jar, Path directory, ClassLoader fallback) {
      super("faultline-agent-class-files", null);
      this.code = code;
      this.jar = jar;
      this.directory = directory;
      this.fallback = fallback;
    }

    @Override
    public URL getResource(String name) {
      URL own = findResource(name);
      return own != null ? own : fallback.getResource(name);
    }

    @Override
    protected URL findResource(String name) {
      try {
        if (jar != null) {
          JarEntry entry = jar.getJarEntry(name);
          return entry == null ? null : new URL("jar:" + code + "!/" + entry.getName());
        }
        Path file = ownFile(name);
        return file == null ? null : file.toUri().toURL();
      } catch (MalformedURLException | RuntimeException e) {
        return null;
      }
    }

    @Override
    public InputStream getResourceAsStream(String name) {
      InputStream own = openOwn(name);
      return own != null ? own : fallback.getResourceAsStream(name);
    }

    private InputStream openOwn(String name) {
      try {
        if (jar != null) {
          JarEntry entry = jar.getJarEntry(name);
          return entry == null ? null : jar.getInputStream(entry);
        }
        Path file = ownFile(name);
        return file == null ? null : Files.newInputStream(file);
      } catch (IOException | RuntimeException e) {
        return null;
      }
    }

    /** The file under the directory that {@code name} names, or null. */
    private Path ownFile(String name) {
      Path file = directory.resolve(name).normalize();
      return file.startsWith(directory) && Files.isRegularFile(file) ? file : null;
    }

    void closeJar() throws IOException {
      if (jar != null) {
        jar.close();
      }
    }
  }

  /** The loader to read the agent's class files from as resources. */
  public ClassLoader loader() {
    return loader;
  }

  /** Closes the jar this instance opened, if it opened one. */
  @Override
  public void close() {
    if (!(loader instanceof CodeFirst own)) {
      return;
    }
    try {
      own.closeJar();
    } catch (IOException e) {
      // a read-only jar that will not close leaks one descriptor; nothing else to do
    }
  }
}
