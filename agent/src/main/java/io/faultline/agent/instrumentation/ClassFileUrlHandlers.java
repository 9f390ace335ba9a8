package io.faultline.agent.instrumentation;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;

/**
 * Loads the JDK's {@code jrt:} and {@code jar:} URL handlers on the thread of {@code premain}, by
 * reading one class file through each.
 *
 * <p>Why: the agent reads class files (its advice, classes that loaded before its modules) through
 * {@code jar:} and {@code jrt:} URLs on its start thread. If that is the first such read in the
 * JVM, {@code sun.net.www.protocol.jrt.Handler} and {@code JavaRuntimeURLConnection} load on that
 * thread, and another agent's transformer (the OpenTelemetry agent lets {@code
 * sun.net.www.protocol.*} through) may read a class file while they load. That nested read needs
 * the very class being loaded: a {@code ClassCircularityError}, which the JVM then records against
 * the handler for good. Every later {@code jrt:} read in the process fails (the application's
 * locale data among them), and our modules fail to install. Loaded here, before the start thread
 * exists and before an agent later on the command line registers a transformer, they are simply
 * there when anyone needs them.
 */
public final class ClassFileUrlHandlers {

  private ClassFileUrlHandlers() {}

  /**
   * Reads {@code java/lang/Object.class} through {@code jrt:} and one of the agent's class files
   * through its own URL ({@code jar:} for the agent jar). Never throws: a read that fails only
   * means the handler loads later, as it did before.
   */
  public static void loadNow() {
    read(Object.class, "Object.class");
    read(ClassFileUrlHandlers.class, "ClassFileUrlHandlers.class");
  }

  private static void read(Class<?> owner, String classFile) {
    // A transformer registered before ours can fail this load (then it fails everyone's): the
    // error is that agent's to report, and our start goes on.
    try {
      URL url = owner.getResource(classFile);
      if (url != null) {
        try (InputStream in = url.openStream()) {
          in.read();
        }
      }
    } catch (IOException | RuntimeException | LinkageError e) {
      // nothing loaded ahead; the start goes on as before
    }
  }
}
