package io.faultline.core.net;

import io.faultline.core.net.foreign.ForeignTcpInfoReader;
import io.faultline.core.net.foreign.GetsockoptBinder;

/**
 * The Foreign Function &amp; Memory reader for code that may link native functions quietly: on JDK
 * 22 or later, when the application granted this code's module native access ({@code
 * --enable-native-access}). Without that grant linking would print the JDK's restricted-method
 * warning into the application's output, so JNA is used instead.
 */
final class ForeignFunctions {

  private ForeignFunctions() {}

  static Outcome<TcpInfoReader> readerIfNativeAccess() {
    if (Runtime.version().feature() < 22) {
      return Outcome.unavailable("the Foreign Function & Memory API needs JDK 22 or later");
    }
    try {
      Module own = ForeignFunctions.class.getModule();
      boolean granted = (boolean) Module.class.getMethod("isNativeAccessEnabled").invoke(own);
      if (!granted) {
        return Outcome.unavailable("no native access granted to " + own);
      }
      return ForeignTcpInfoReader.of(GetsockoptBinder.bind());
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return Outcome.unavailable("the Foreign Function & Memory API is unusable here: " + e);
    }
  }
}
