package io.faultline.agent.jooq;

import java.io.IOException;
import java.io.InputStream;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.Set;

/**
 * Defines jooq-guard's jOOQ-facing classes (and the agent's bridge to them) a second time, next to
 * the application's jOOQ, so they link against the jOOQ that loaded the instrumented provider
 * whatever its class loader (a Spring Boot jar, an application server), while the agent itself, on
 * the system class loader, never refers to a jOOQ type.
 *
 * <p>Lookup: the jOOQ-facing packages are defined here from the agent jar's bytes; every other
 * {@code io.faultline.} class (core, the configuration keys, the finding types, the relocated
 * Micrometer, the agent) is the agent's own, so identities such as {@code NestingPolicy} and the
 * findings registry are shared; everything else (jOOQ, JDBC, the JDK) comes from the application's
 * loader.
 */
final class GuardClassLoader extends ClassLoader {

  static {
    registerAsParallelCapable();
  }

  /** jooq-guard classes without jOOQ types, shared with the agent so their identity is one. */
  private static final Set<String> SHARED =
      Set.of(
          "io.faultline.jooq.JooqConfigKeys",
          "io.faultline.jooq.JooqFindingTypes",
          "io.faultline.jooq.JooqMeters",
          "io.faultline.jooq.NestingPolicy",
          "io.faultline.jooq.SqlLiterals");

  private final ClassLoader agentLoader;
  private final ProtectionDomain domain;

  GuardClassLoader(ClassLoader jooqLoader, ClassLoader agentLoader) {
    super("faultline-jooq-guard", jooqLoader);
    this.agentLoader = agentLoader;
    CodeSource source = GuardClassLoader.class.getProtectionDomain().getCodeSource();
    this.domain = new ProtectionDomain(source, null, this, null);
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (!name.startsWith("io.faultline.")) {
      return super.loadClass(name, resolve);
    }
    if (!definedHere(name)) {
      return agentLoader.loadClass(name);
    }
    synchronized (getClassLoadingLock(name)) {
      Class<?> loaded = findLoadedClass(name);
      if (loaded == null) {
        loaded = define(name);
      }
      if (resolve) {
        resolveClass(loaded);
      }
      return loaded;
    }
  }

  static boolean definedHere(String name) {
    if (name.startsWith("io.faultline.agent.jooq.bridge.")) {
      return true;
    }
    return name.startsWith("io.faultline.jooq.")
        && !name.startsWith("io.faultline.jooq.postgres.")
        && !SHARED.contains(name);
  }

  private Class<?> define(String name) throws ClassNotFoundException {
    String resource = name.replace('.', '/') + ".class";
    try (InputStream in = agentLoader.getResourceAsStream(resource)) {
      if (in == null) {
        throw new ClassNotFoundException(name + " is not in the Faultline agent jar");
      }
      byte[] bytes = in.readAllBytes();
      return defineClass(name, bytes, 0, bytes.length, domain);
    } catch (IOException e) {
      throw new ClassNotFoundException(name, e);
    }
  }
}
