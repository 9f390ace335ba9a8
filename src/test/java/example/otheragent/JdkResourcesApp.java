package example.otheragent;

import io.faultline.it.agent.app.AgentReady;
import java.io.InputStream;
import java.text.NumberFormat;
import java.util.Locale;

/**
 * Waits for the Faultline agent when it is attached, then uses what a broken {@code jrt:} handler
 * takes away: a JDK class file and locale data. Prints {@code jdk-resources: ok} and exits 0, or
 * exits 1 with the error.
 */
public final class JdkResourcesApp {

  private JdkResourcesApp() {}

  public static void main(String[] args) throws Exception {
    AgentReady.await();
    try {
      int size;
      try (InputStream in = Object.class.getResource("Object.class").openStream()) {
        size = in.readAllBytes().length;
      }
      String number = NumberFormat.getInstance(Locale.GERMANY).format(1234567.5);
      System.out.println("jdk-resources: ok (Object.class " + size + " bytes, " + number + ")");
    } catch (Throwable e) {
      System.out.println("jdk-resources: " + e);
      System.exit(1);
    }
  }
}
