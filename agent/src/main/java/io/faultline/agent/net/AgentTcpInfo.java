package io.faultline.agent.net;

import io.faultline.core.Loggers;
import io.faultline.core.net.JniDeliverySample;
import io.faultline.core.net.Outcome;
import io.faultline.core.net.TcpInfoReader;
import java.lang.System.Logger.Level;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.util.Locale;

/**
 * The TCP_INFO reader for code running inside the agent jar. Use {@link #reader()} there instead of
 * {@link TcpInfoReader#create()}: on JDK 22 and later it links {@code getsockopt} with the Foreign
 * Function &amp; Memory API in a module of its own ({@link NativeAccessModule}); otherwise, in the
 * shaded agent, JNA lives in an isolated class loader (see {@link NestedJnaLoader}), which {@code
 * create()} cannot see. Outside the agent jar (library use, unit tests) this falls back to {@code
 * create()}.
 */
public final class AgentTcpInfo {

  /** Taken when first used: premain touches this class, and a first logger costs ~10 ms there. */
  private static System.Logger log() {
    return Loggers.get(AgentTcpInfo.class.getName());
  }

  private static volatile Instrumentation instrumentation;

  /** The reader once {@link #reader()} created it. */
  private static volatile TcpInfoReader loaded;

  private AgentTcpInfo() {}

  /**
   * The agent's {@link Instrumentation}, which grants the foreign-function reader's module native
   * access; set in {@code premain} before any reader is made.
   */
  public static void useInstrumentation(Instrumentation inst) {
    instrumentation = inst;
  }

  /** The reader, created on first use; never throws, never null. */
  public static TcpInfoReader reader() {
    TcpInfoReader r = Holder.READER;
    loaded = r;
    return r;
  }

  /**
   * The reader, or, until it is created, one that creates it at its first read: for a caller on an
   * application thread, which must not pay for loading the native binding (only the agent's own
   * threads read). Never throws, never null.
   */
  public static TcpInfoReader readerLoadedOnFirstRead() {
    TcpInfoReader r = loaded;
    return r != null ? r : new LoadingTcpInfoReader(AgentTcpInfo::reader);
  }

  private static final class Holder {
    static final TcpInfoReader READER = load();
  }

  private static TcpInfoReader load() {
    ClassLoader agentLoader = AgentTcpInfo.class.getClassLoader();
    Instrumentation inst = instrumentation;
    if (inst != null && agentLoader != null && isLinux()) {
      Outcome<TcpInfoReader> foreign = NativeAccessModule.reader(inst, agentLoader);
      if (foreign.isAvailable()) {
        return foreign.value().orElseThrow();
      }
      if (Runtime.version().feature() >= 22) {
        log()
            .log(
                Level.INFO,
                "faultline: TCP_INFO is read through JNA: " + foreign.reason().orElse("unknown"));
      }
    }
    if (agentLoader == null
        || agentLoader.getResource(NestedJnaLoader.RESOURCE) == null
        || !isLinux()) {
      return TcpInfoReader.create();
    }
    // The delivery sampler's reads through the agent's JNI library where it binds; JNA then loads
    // only when something else is read (a connection's whole TCP_INFO, a sock_diag dump).
    Outcome<TcpInfoReader> jni =
        JniDeliverySample.over(new LoadingTcpInfoReader(() -> throughJna(agentLoader)));
    if (jni.isAvailable()) {
      return jni.value().orElseThrow();
    }
    log()
        .log(
            Level.DEBUG,
            "faultline: the delivery sample is read through JNA: "
                + jni.reason().orElse("unknown"));
    return throughJna(agentLoader);
  }

  /** The reader through JNA, from the agent's nested JNA jar; never throws. */
  private static TcpInfoReader throughJna(ClassLoader agentLoader) {
    try {
      NestedJnaLoader loader = NestedJnaLoader.create(agentLoader);
      Class<?> linux = Class.forName(NestedJnaLoader.TCP_INFO_READER, true, loader);
      Method load = linux.getDeclaredMethod("load");
      load.setAccessible(true);
      @SuppressWarnings("unchecked") // LinuxTcpInfoReader.load() returns Outcome<TcpInfoReader>
      Outcome<TcpInfoReader> outcome = (Outcome<TcpInfoReader>) load.invoke(null);
      if (outcome.isAvailable()) {
        return outcome.value().orElseThrow();
      }
      return off(outcome.reason().orElse("unknown"));
    } catch (Throwable e) {
      return off(String.valueOf(e));
    }
  }

  /**
   * The reader that says why TCP_INFO is not read. Not {@link TcpInfoReader#create()}: in the agent
   * jar that would try JNA again from a loader that cannot see it, and hide this reason.
   */
  private static TcpInfoReader off(String reason) {
    log().log(Level.INFO, "faultline: per-connection TCP facts are off: " + reason);
    return TcpInfoReader.unsupported(reason);
  }

  private static boolean isLinux() {
    return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");
  }
}
