package io.faultline.agent.net;

import io.faultline.core.net.Outcome;
import io.faultline.core.net.TcpInfoReader;
import io.faultline.core.net.foreign.ForeignTcpInfoReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReader;
import java.lang.module.ModuleReference;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The agent's TCP_INFO reader on JDK 22 and later: {@code getsockopt} linked with the Foreign
 * Function &amp; Memory API by core's {@code GetsockoptBinder}, defined alone in a named module of
 * a layer of its own ({@value #MODULE}), which the agent grants native access. Linking from the
 * class path would print the JDK's restricted-method warning into the application's output (as
 * loading JNA's native library does from JDK 24 on), and {@code --enable-native-access=ALL-UNNAMED}
 * is the application's decision, not the agent's; a module holding one class that names nothing but
 * {@code java.base} is granted it instead, through {@code java.base/java.lang} opened to that
 * module only.
 */
final class NativeAccessModule {

  /** The module's name. */
  static final String MODULE = "io.faultline.nativeaccess";

  // Names, not class literals: the binder is loaded only in the module.
  private static final String PACKAGE = "io.faultline.core.net.foreign";
  private static final String BINDER = PACKAGE + ".GetsockoptBinder";
  private static final String BINDER_FILE = BINDER.replace('.', '/') + ".class";

  private NativeAccessModule() {}

  /** The reader, or why there is none here (then JNA's is used). Never throws. */
  static Outcome<TcpInfoReader> reader(Instrumentation instrumentation, ClassLoader agentLoader) {
    if (Runtime.version().feature() < 22) {
      return Outcome.unavailable("the Foreign Function & Memory API needs JDK 22 or later");
    }
    try {
      Module module = define(readBinder(agentLoader));
      Module base = Object.class.getModule();
      instrumentation.redefineModule(
          base, Set.of(), Map.of(), Map.of("java.lang", Set.of(module)), Set.of(), Map.of());
      Class<?> binder = Class.forName(BINDER, true, module.getClassLoader());
      binder.getMethod("enableNativeAccessOfOwnModule").invoke(null);
      return ForeignTcpInfoReader.of((MethodHandle[]) binder.getMethod("bind").invoke(null));
    } catch (ReflectiveOperationException | IOException | RuntimeException | LinkageError e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      return Outcome.unavailable("no Foreign Function & Memory reader: " + cause);
    }
  }

  private static byte[] readBinder(ClassLoader agentLoader) throws IOException {
    try (InputStream in = agentLoader.getResourceAsStream(BINDER_FILE)) {
      if (in == null) {
        throw new IOException(BINDER_FILE + " is not in the agent jar");
      }
      return in.readAllBytes();
    }
  }

  /** A layer over the boot layer with {@value #MODULE}, whose one class is {@code classFile}. */
  private static Module define(byte[] classFile) {
    ModuleDescriptor descriptor =
        ModuleDescriptor.newModule(MODULE).packages(Set.of(PACKAGE)).exports(PACKAGE).build();
    ModuleReference reference = new OneClassReference(descriptor, classFile);
    ModuleFinder finder =
        new ModuleFinder() {
          @Override
          public Optional<ModuleReference> find(String name) {
            return MODULE.equals(name) ? Optional.of(reference) : Optional.empty();
          }

          @Override
          public Set<ModuleReference> findAll() {
            return Set.of(reference);
          }
        };
    ModuleLayer boot = ModuleLayer.boot();
    Configuration configuration =
        boot.configuration().resolve(finder, ModuleFinder.of(), Set.of(MODULE));
    ModuleLayer layer =
        ModuleLayer.defineModulesWithOneLoader(
                configuration, List.of(boot), ClassLoader.getPlatformClassLoader())
            .layer();
    return layer.findModule(MODULE).orElseThrow();
  }

  /** The module's contents: the binder's class file, read from the agent jar. */
  private static final class OneClassReference extends ModuleReference {
    private final byte[] classFile;

    OneClassReference(ModuleDescriptor descriptor, byte[] classFile) {
      super(descriptor, URI.create("faultline:" + MODULE));
      this.classFile = classFile;
    }

    @Override
    public ModuleReader open() {
      return new ModuleReader() {
        @Override
        public Optional<URI> find(String name) {
          return Optional.empty();
        }

        @Override
        public Optional<InputStream> open(String name) {
          return BINDER_FILE.equals(name)
              ? Optional.of(new ByteArrayInputStream(classFile))
              : Optional.empty();
        }

        @Override
        public Optional<ByteBuffer> read(String name) {
          return BINDER_FILE.equals(name)
              ? Optional.of(ByteBuffer.wrap(classFile))
              : Optional.empty();
        }

        @Override
        public Stream<String> list() {
          return Stream.of(BINDER_FILE);
        }

        @Override
        public void close() {}
      };
    }
  }
}
