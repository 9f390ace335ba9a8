package example.otheragent;

import java.io.InputStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.net.URL;
import java.security.ProtectionDomain;

/**
 * Another Java agent, as the OpenTelemetry agent is in this respect: while a {@code
 * sun.net.www.protocol.*} class loads, its transformer reads a JDK class file through {@code jrt:}
 * (OpenTelemetry's type matchers describe super types that way). When that load is the JVM's first
 * {@code jrt:} read, the nested read needs the class being loaded and fails with a {@code
 * ClassCircularityError}, which the JVM keeps: {@code jrt:} is broken for the rest of the process.
 * It prints each such failure as {@code other-agent: <error>}.
 */
public final class ClassFileReadingAgent {

  private ClassFileReadingAgent() {}

  public static void premain(String args, Instrumentation instrumentation) {
    instrumentation.addTransformer(
        new ClassFileTransformer() {
          @Override
          public byte[] transform(
              ClassLoader loader,
              String name,
              Class<?> redefined,
              ProtectionDomain domain,
              byte[] classFile) {
            if (name != null && name.startsWith("sun/net/www/protocol/")) {
              try {
                URL url = Object.class.getResource("Object.class");
                try (InputStream in = url.openStream()) {
                  in.readAllBytes();
                }
              } catch (Throwable e) {
                System.err.println("other-agent: " + e);
              }
            }
            return null;
          }
        });
  }
}
