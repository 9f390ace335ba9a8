package io.faultline.core.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;

/** A copy of a recorded tree under {@code src/test/resources/host/NAME} that a test may edit. */
final class FixtureTree {

  final Path root;

  private FixtureTree(Path root) {
    this.root = root;
  }

  static FixtureTree copy(String name, Path into) {
    try {
      Path source = Paths.get(FixtureTree.class.getResource("/host/" + name).toURI());
      try (Stream<Path> files = Files.walk(source)) {
        for (Path p : (Iterable<Path>) files::iterator) {
          Path target = into.resolve(source.relativize(p).toString());
          if (Files.isDirectory(p)) {
            Files.createDirectories(target);
          } else {
            Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
      return new FixtureTree(into);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  FixtureTree set(String relative, String text) {
    try {
      Path p = root.resolve(relative);
      Files.createDirectories(p.getParent());
      Files.writeString(p, text + "\n");
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  FixtureTree sysctl(String dotted, String value) {
    return set("proc/sys/" + dotted.replace('.', '/'), value);
  }

  FixtureTree delete(String relative) {
    try {
      Files.deleteIfExists(root.resolve(relative));
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  ProcFs proc() {
    return ProcFs.at(root);
  }

  /** Runs {@code check} with one sample. */
  CheckResult run(HostCheck check, DoctorOptions options) {
    return check.run(context(options, Optional.empty()));
  }

  CheckResult run(HostCheck check) {
    return run(check, DoctorOptions.defaults());
  }

  DoctorContext context(DoctorOptions options, Optional<HostSample> second) {
    return new DoctorContext(
        proc(),
        options,
        HostSample.take(proc(), Instant.parse("2026-01-01T00:00:00Z")),
        second,
        HostEnvironment.detect(proc()));
  }
}
