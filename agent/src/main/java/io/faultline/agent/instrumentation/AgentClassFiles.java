package io.faultline.agent.instrumentation;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * Where the installer reads the agent's own class files (the advice it inlines, the bootstrap
 * bridge): straight from the agent's jar. The loader that defined the agent finds them too, but
 * only after a lookup in every entry of the application's class path (the agent's jar is appended
 * at its end), and those lookups, a few thousand at every start, were enough to make the JDK's zip
 * lookup hot and have C2 compile it during the application's start-up.
 *
 * <p>Only resources are read through {@link #loader()}; no class is ever loaded from it. Closed
 * once the modules are installed.
 */
public final class AgentClassFiles implements AutoCloseable {

  private final ClassLoader loader;
  private final URLClassLoader own;

  private AgentClassFiles(ClassLoader loader, URLClassLoader own) {
    this.loader = loader;
    this.own = own;
  }

  /**
   * Reads from {@code agentCode} (the agent's jar or class directory) alone; when that location is
   * unknown, from {@code agentLoader}.
   */
  public static AgentClassFiles of(URL agentCode, ClassLoader agentLoader) {
    if (agentCode == null) {
      return new AgentClassFiles(agentLoader, null);
    }
    // Parent null: a resource lookup asks the bootstrap loader (which has no io/faultline/
    // resource) and then this one location.
    URLClassLoader own = new URLClassLoader(new URL[] {agentCode}, null);
    return new AgentClassFiles(own, own);
  }

  /** The loader to read the agent's class files from as resources. */
  public ClassLoader loader() {
    return loader;
  }

  /** Closes the jar this instance opened, if it opened one. */
  @Override
  public void close() {
    if (own == null) {
      return;
    }
    try {
      own.close();
    } catch (IOException e) {
      // a read-only jar that will not close leaks one descriptor; nothing else to do
    }
  }
}
