package io.faultline.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The weaver on code nobody here wrote: every method of every class in kafka-clients and jOOQ gets
 * an enter and an exit hook (on throw too), each class is defined and linked, so the JVM's verifier
 * checks every frame the weave wrote.
 */
class WeaveEveryMethodTest {

  private static final String RECORDER = "io/faultline/agent/weave/Recorder";
  private static final ErrorHook ERRORS = new ErrorHook(RECORDER, "suppressed", "every-method");

  private static final MethodAdvice INSTANCE =
      ClassWeaverTest.advice(EveryMethodAdvice.Instance.class);
  private static final MethodAdvice REFERENCE_RETURN =
      ClassWeaverTest.advice(EveryMethodAdvice.ReferenceReturn.class);
  private static final MethodAdvice STATIC = ClassWeaverTest.advice(TestAdvice.Origins.class);
  private static final MethodAdvice CONSTRUCTOR =
      ClassWeaverTest.advice(EveryMethodAdvice.Constructor.class);

  private static MethodAdvice adviceFor(ClassWeaver.MethodInfo m) {
    String name = m.name();
    String descriptor = m.descriptor();
    int access = m.access();
    if (name.equals("<clinit>") || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
      return null;
    }
    if (name.equals("<init>")) {
      return CONSTRUCTOR;
    }
    if ((access & Opcodes.ACC_STATIC) != 0) {
      return STATIC;
    }
    int sort = Type.getReturnType(descriptor).getSort();
    return sort == Type.OBJECT || sort == Type.ARRAY ? REFERENCE_RETURN : INSTANCE;
  }

  @Test
  @Timeout(300)
  void everyMethodOfKafkaClientsVerifies() throws Exception {
    Report report =
        weaveAndLink(jarOf(org.apache.kafka.clients.NetworkClient.class), "org/apache/kafka/");
    System.out.println("kafka-clients: " + report);
    report.refused.stream().limit(20).forEach(System.out::println);
    assertThat(report.verifyErrors).isEmpty();
    assertThat(report.refusedOtherThanStack()).isEmpty();
    assertThat(report.linked).isGreaterThan(1500);
    assertThat(report.wovenMethods).isGreaterThan(15_000);
  }

  @Test
  @Timeout(300)
  void everyMethodOfJooqVerifies() throws Exception {
    Report report = weaveAndLink(jarOf(org.jooq.impl.DSL.class), "org/jooq/");
    System.out.println("jOOQ: " + report);
    assertThat(report.verifyErrors).isEmpty();
    assertThat(report.refusedOtherThanStack()).isEmpty();
    assertThat(report.linked).isGreaterThan(2000);
  }

  /** What a weave of a whole jar did. */
  static final class Report {
    int classes;
    int wovenMethods;
    int linked;
    int missingDependencies;
    final List<String> refused = new ArrayList<>();
    final List<String> verifyErrors = new ArrayList<>();
    final java.util.Set<String> missing = new java.util.TreeSet<>();

    List<String> refusedOtherThanStack() {
      return refused.stream().filter(r -> !r.contains("operand stack")).toList();
    }

    @Override
    public String toString() {
      return classes
          + " classes, "
          + wovenMethods
          + " methods woven, "
          + refused.size()
          + " refused ("
          + refusedOtherThanStack().size()
          + " for other reasons than the stack at a return), "
          + linked
          + " linked, "
          + missingDependencies
          + " with an optional dependency missing "
          + missing
          + ", "
          + verifyErrors.size()
          + " verify errors "
          + verifyErrors.stream().limit(5).toList();
    }
  }

  private static Report weaveAndLink(Path jar, String prefix) throws IOException {
    Report report = new Report();
    List<String> names = new ArrayList<>();
    WovenLoader loader = new WovenLoader(prefix, report);
    try (JarFile file = new JarFile(jar.toFile())) {
      Enumeration<JarEntry> entries = file.entries();
      while (entries.hasMoreElements()) {
        JarEntry e = entries.nextElement();
        String name = e.getName();
        if (!name.endsWith(".class") || !name.startsWith(prefix) || name.contains("-")) {
          continue;
        }
        byte[] bytes;
        try (InputStream in = file.getInputStream(e)) {
          bytes = in.readAllBytes();
        }
        report.classes++;
        String binary = name.substring(0, name.length() - 6).replace('/', '.');
        ClassWeaver.Result r = ClassWeaver.weave(bytes, WeaveEveryMethodTest::adviceFor, ERRORS);
        r.refused().forEach(why -> report.refused.add(binary + "." + why));
        report.wovenMethods += r.woven();
        loader.put(binary, r.classFile() == null ? bytes : r.classFile());
        names.add(binary);
      }
    }
    for (String name : names) {
      try {
        Class<?> c = Class.forName(name, false, loader);
        c.getDeclaredMethods();
        c.getDeclaredConstructors();
        report.linked++;
      } catch (VerifyError | ClassFormatError e) {
        report.verifyErrors.add(name + ": " + e);
      } catch (NoClassDefFoundError | TypeNotPresentException e) {
        report.missingDependencies++;
        report.missing.add(String.valueOf(e.getMessage()));
      } catch (LinkageError | ClassNotFoundException e) {
        if (String.valueOf(e).contains("Verif") || String.valueOf(e).contains("stack")) {
          report.verifyErrors.add(name + ": " + e);
        } else {
          report.missingDependencies++;
        }
      }
    }
    return report;
  }

  private static Path jarOf(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  /** Defines the woven classes of one library itself, so they share runtime packages. */
  private static final class WovenLoader extends ClassLoader {
    private final String prefix;
    private final java.util.Map<String, byte[]> classes = new java.util.HashMap<>();

    WovenLoader(String prefix, Report report) {
      super(WeaveEveryMethodTest.class.getClassLoader());
      this.prefix = prefix.replace('/', '.');
    }

    void put(String name, byte[] bytes) {
      classes.put(name, bytes);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null && name.startsWith(prefix) && classes.containsKey(name)) {
          byte[] b = classes.get(name);
          c = defineClass(name, b, 0, b.length);
        }
        if (c == null) {
          return super.loadClass(name, resolve);
        }
        return c;
      }
    }
  }
}
