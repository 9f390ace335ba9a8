package io.faultline.agent.instrumentation;

import java.lang.reflect.Method;

/**
 * Defines a class in the bootstrap class loader through {@code jdk.internal.misc.Unsafe}. Never
 * loaded by the agent's class loader: {@link BootstrapBridge} defines this class in a class loader
 * of its own and exports {@code jdk.internal.misc} to that loader's unnamed module alone, so the
 * application's classes, which share the agent's unnamed module, gain no access to JDK internals.
 * Uses nothing outside {@code java.base}.
 */
public final class BootLoaderDefiner {

  private BootLoaderDefiner() {}

  /** Defines {@code bytes} as class {@code name} in the bootstrap loader and returns it. */
  public static Class<?> define(String name, byte[] bytes) throws ReflectiveOperationException {
    Class<?> unsafeClass = Class.forName("jdk.internal.misc.Unsafe");
    Object unsafe = unsafeClass.getMethod("getUnsafe").invoke(null);
    Method define =
        unsafeClass.getMethod(
            "defineClass",
            String.class,
            byte[].class,
            int.class,
            int.class,
            ClassLoader.class,
            java.security.ProtectionDomain.class);
    return (Class<?>) define.invoke(unsafe, name, bytes, 0, bytes.length, null, null);
  }
}
