package io.faultline.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Building the shipped modules' type instrumentations loads none of their advice classes: the
 * weaver needs only their bytes, and every class the agent loads at start is CPU the application
 * pays for. The agent's classes are defined here by a loader of their own, which records what it
 * defines.
 */
class AdviceClassesStayUnloadedTest {

  @Test
  void shippedModulesNameTheirAdviceWithoutLoadingIt() throws Exception {
    URL agentClasses =
        InstrumentationModule.class.getProtectionDomain().getCodeSource().getLocation();
    try (RecordingLoader loader =
        new RecordingLoader(agentClasses, AdviceClassesStayUnloadedTest.class.getClassLoader())) {
      List<String> adviceClasses = new ArrayList<>();
      Class<?> installer = loader.loadClass(InstrumentationInstaller.class.getName());
      List<String> failures = new ArrayList<>();
      List<?> modules =
          (List<?>)
              installer
                  .getMethod("discover", ClassLoader.class, List.class)
                  .invoke(null, loader, failures);
      assertThat(failures).as("every shipped module is created").isEmpty();
      Method types = loader.loadClass(InstrumentationModule.class.getName()).getMethod("types");
      Method advice = loader.loadClass(TypeInstrumentation.class.getName()).getMethod("advice");
      Method adviceClassName =
          loader
              .loadClass(TypeInstrumentation.AdviceBinding.class.getName())
              .getMethod("adviceClassName");
      for (Object module : modules) {
        for (Object type : (List<?>) types.invoke(module)) {
          for (Object binding : (List<?>) advice.invoke(type)) {
            adviceClasses.add((String) adviceClassName.invoke(binding));
          }
        }
      }

      assertThat(modules)
          .as("shipped modules, defined by the recording loader")
          .hasSizeGreaterThan(5);
      assertThat(loader.defined)
          .as("the recording loader defined the modules' classes")
          .contains(modules.get(0).getClass().getName());
      assertThat(adviceClasses).hasSizeGreaterThan(20);
      assertThat(adviceClasses)
          .as("advice classes loaded while their modules' instrumentations were built")
          .doesNotContainAnyElementsOf(loader.defined);
    }
  }

  /**
   * Defines the agent's own classes ({@code io.faultline.agent.}) from {@code agentClasses} itself,
   * recording each; everything else comes from the parent. Its resources are only those of {@code
   * agentClasses}, so the service loader finds the shipped modules and not the test fixtures.
   */
  private static final class RecordingLoader extends URLClassLoader {
    final Set<String> defined = ConcurrentHashMap.newKeySet();

    RecordingLoader(URL agentClasses, ClassLoader parent) {
      super(new URL[] {agentClasses}, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith("io.faultline.agent.")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> loaded = findLoadedClass(name);
        if (loaded == null) {
          loaded = findClass(name);
          defined.add(name);
        }
        return loaded;
      }
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
      return findResources(name);
    }
  }
}
