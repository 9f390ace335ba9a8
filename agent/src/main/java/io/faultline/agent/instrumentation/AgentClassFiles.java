package io.faultline.agent.instrumentation;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.URLConnection;

/**
 * Where the installer reads the class files of the advice it inlines and of the bootstrap bridge:
 * the agent's jar first. The loader that defined the agent finds them too, but only after a lookup
 * in every entry of the application's class path (the agent's jar is appended at its end), and
 * those lookups, a few thousand at every start, were enough to make the JDK's zip lookup hot and
 * have C2 compile it during the application's start-up. A class file the jar does not have (the
 * advice of a module shipped in another jar on the class path) is looked up through that loader.
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
   * agentLoader}; when that location is unknown, from {@code agentLoader} alone.
   */
  public static AgentClassFiles of(URL agentCode, ClassLoader agentLoader) {
    return new AgentClassFiles(
        agentCode == null ? agentLoader : new CodeFirst(agentCode, agentLoader));
  }

  /** Resources from one location, then from a fallback loader; nothing from a parent. */
  private static final class CodeFirst extends URLClassLoader {

    static {
      registerAsParallelCapable();
    }

    private final ClassLoader fallback;

    CodeFirst(URL code, ClassLoader fallback) {
      super(new URL[] {code}, null);
      this.fallback = fallback;
    }

    @Override
    public URL getResource(String name) {
      URL own = findResource(name);
      return own != null ? own : fallback.getResource(name);
    }

    /**
     * Reads through a jar file of the stream's own. {@code URLClassLoader}'s read would use the
     * JVM's shared copy of the agent jar (the one every {@code jar:} URL of it reads, the
     * application class loader's among them) and close it in {@link #close()}: a read of the agent
     * jar on another thread at that moment failed with {@code ZipFile closed} (the agent's JNA jar,
     * and with it TCP_INFO, in one start of many).
     */
    @Override
    public InputStream getResourceAsStream(String name) {
      URL url = getResource(name);
      if (url == null) {
        return null;
      }
      try {
        URLConnection connection = url.openConnection();
        connection.setUseCaches(false);
        return connection.getInputStream();
      } catch (IOException e) {
        return null;
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
      own.close();
    } catch (IOException e) {
      // a read-only jar that will not close leaks one descriptor; nothing else to do
    }
  }
}
