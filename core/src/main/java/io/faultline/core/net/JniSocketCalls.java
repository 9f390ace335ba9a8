package io.faultline.core.net;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;

/**
 * The delivery sampler's two reads as plain JNI calls into {@code libfaultline-net.so} (built from
 * {@code core/src/main/native/faultline_net.c} for each architecture the build had a compiler for,
 * and kept in the jar beside this class): JNA's direct mapping adds several times as much to the
 * system call. The library is bound at the first use of this class, once per class loader; where it
 * cannot be (no build for this architecture, a {@code noexec} temporary directory, a libc it does
 * not link against) {@link #unavailableReason()} says why and nothing here is called.
 */
final class JniSocketCalls {

  /** The library's interface version; a library of another is not used. */
  static final int ABI = 1;

  /** The library's file name in its architecture's directory. */
  static final String LIBRARY = "libfaultline-net.so";

  private JniSocketCalls() {}

  /** The loaded library's interface version. */
  static native int abi();

  /** {@code ioctl(fd, SIOCOUTQ)}: the bytes not yet acknowledged, or -1. */
  static native int outputQueue(int fd);

  /** {@code tcpi_bytes_acked} of {@code getsockopt(fd, TCP_INFO)}, or -1. */
  static native long bytesAcked(int fd);

  /** Why the calls cannot be made here; empty once the library is bound. Never throws. */
  static Optional<String> unavailableReason() {
    return Optional.ofNullable(Binding.FAILURE);
  }

  /**
   * The directory, beside this class, of the library for {@code osName}/{@code osArch}; empty where
   * none is built.
   */
  static Optional<String> directory(String osName, String osArch) {
    if (!osName.toLowerCase(Locale.ROOT).startsWith("linux")) {
      return Optional.empty();
    }
    return switch (osArch.toLowerCase(Locale.ROOT)) {
      case "amd64", "x86_64" -> Optional.of("native/linux-x86-64/");
      case "aarch64", "arm64" -> Optional.of("native/linux-aarch64/");
      default -> Optional.empty();
    };
  }

  /** Binds the library when first asked: class initialisation makes it once per class loader. */
  private static final class Binding {
    static final String FAILURE = bind();
  }

  private static String bind() {
    if (Runtime.version().feature() >= 24) {
      // From JDK 24 on, System.load from the class path prints the JDK's restricted-method warning
      // into the application's output; the Foreign Function & Memory route serves there.
      return "JNI is used only before JDK 24";
    }
    String os = System.getProperty("os.name", "");
    String arch = System.getProperty("os.arch", "");
    Optional<String> directory = directory(os, arch);
    if (directory.isEmpty()) {
      return "no " + LIBRARY + " is built for " + os + " on " + arch;
    }
    String resource = directory.get() + LIBRARY;
    Path copy = null;
    try (InputStream in = JniSocketCalls.class.getResourceAsStream(resource)) {
      if (in == null) {
        return LIBRARY + " for " + arch + " is not in this jar (it was built without a C compiler)";
      }
      // A file of its own for each load: the JVM binds a library file to one class loader only.
      copy = Files.createTempFile("faultline-net-", ".so");
      Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
      System.load(copy.toAbsolutePath().toString());
      int abi = abi();
      if (abi != ABI) {
        return LIBRARY + " has interface version " + abi + ", not " + ABI;
      }
      // Each native method binds at its first call: make both now, on a descriptor that is none.
      outputQueue(-1);
      bytesAcked(-1);
      return null;
    } catch (IOException | RuntimeException | LinkageError e) {
      return LIBRARY + " could not be loaded: " + e;
    } finally {
      if (copy != null) {
        try {
          // The mapped library stays usable once its file is gone.
          Files.deleteIfExists(copy);
        } catch (IOException | RuntimeException e) {
          copy.toFile().deleteOnExit();
        }
      }
    }
  }
}
