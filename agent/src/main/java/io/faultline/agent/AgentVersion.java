package io.faultline.agent;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The agent's version, from the build. */
public final class AgentVersion {

  private AgentVersion() {}

  /** e.g. {@code 0.1.0}; {@code unknown} when the build did not record it. */
  public static String get() {
    try (InputStream in = AgentVersion.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
