package io.faultline.core.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;

/**
 * Reads the properties file named by the {@code config} key: UTF-8, {@link Properties} syntax, keys
 * written without any prefix ({@code kafka.tcp.interval=5s}). A file that cannot be read is an
 * error problem, never an exception: the other sources still apply.
 */
final class ConfigFile {

  /** Larger than any real configuration; refusing it protects the heap from a wrong path. */
  static final long MAX_BYTES = 1 << 20;

  private ConfigFile() {}

  /**
   * The settings in the file at {@code path}.
   *
   * @param pathSource where the path came from, to say where to fix it
   */
  static List<Setting> read(String path, String pathSource, Problems problems) {
    String fix = "; fix or remove config in " + pathSource;
    Path file;
    try {
      file = Path.of(path.trim());
    } catch (InvalidPathException e) {
      problems.error("config", pathSource, Printable.quote(path) + " is not a valid path" + fix);
      return List.of();
    }
    String source = "config file " + Printable.shorten(file.toString());
    Properties properties = new Properties();
    try {
      if (!Files.isRegularFile(file)) {
        problems.error(
            "config",
            pathSource,
            "config file " + Printable.quote(path) + " does not exist or is not a file" + fix);
        return List.of();
      }
      if (Files.size(file) > MAX_BYTES) {
        problems.error(
            "config",
            pathSource,
            "config file "
                + Printable.quote(path)
                + " is larger than 1 MiB, so probably not a Faultline config file"
                + fix);
        return List.of();
      }
      try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        properties.load(reader);
      }
    } catch (IOException | RuntimeException e) {
      // IOException: unreadable or not UTF-8; IllegalArgumentException: a malformed \\uXXXX escape.
      problems.error(
          "config",
          pathSource,
          "cannot read config file " + Printable.quote(path) + ": " + describe(e) + fix);
      return List.of();
    }
    List<Setting> settings = new ArrayList<>();
    for (String key : new TreeSet<>(properties.stringPropertyNames())) {
      settings.add(new Setting(key, key, properties.getProperty(key), Setting.Kind.FILE, source));
    }
    return settings;
  }

  private static String describe(Exception e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : " " + Printable.shorten(message));
  }
}
