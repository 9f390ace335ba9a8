package io.faultline.core.net;

/**
 * The JNA reader alone, without the JNI delivery sample in front: what {@link
 * TcpInfoReader#create()} gives where Faultline's JNI library is not built, for benchmarks that set
 * the two routes side by side and tests that compare them.
 */
public final class JnaOnlyReader {

  private JnaOnlyReader() {}

  /** JNA's reader, or an exception saying why there is none. */
  public static TcpInfoReader load() {
    Outcome<TcpInfoReader> jna = LinuxTcpInfoReader.load();
    return jna.value()
        .orElseThrow(() -> new IllegalStateException(jna.reason().orElse("no JNA reader")));
  }
}
