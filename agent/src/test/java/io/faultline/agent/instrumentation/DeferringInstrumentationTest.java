package io.faultline.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.instrument.ClassFileTransformer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeferringInstrumentationTest {

  private final DeferredTransformer deferred =
      new DeferredTransformer((n, l, b) -> List.of(), null);
  private final List<String> seen = new ArrayList<>();
  private final ClassFileTransformer recording =
      new ClassFileTransformer() {
        @Override
        public byte[] transform(
            Module module,
            ClassLoader loader,
            String name,
            Class<?> redefined,
            java.security.ProtectionDomain domain,
            byte[] bytes) {
          seen.add(name);
          return null;
        }
      };

  private void load(String name) {
    deferred.endStartup(1000);
    deferred.transform(null, getClass().getClassLoader(), name, null, null, new byte[] {1});
  }

  @Test
  void aFilteredTransformerSeesOnlyTheClassFilesTheFilterLetsThrough() {
    new DeferringInstrumentation(null, deferred)
        .filtered((name, loader, bytes) -> name.startsWith("app/"))
        .addTransformer(recording, true);
    load("app/Service");
    load("lib/Other");
    assertThat(seen).containsExactly("app/Service");
  }

  @Test
  void anUnfilteredTransformerSeesEveryClass() {
    new DeferringInstrumentation(null, deferred).addTransformer(recording);
    load("app/Service");
    load("lib/Other");
    assertThat(seen).containsExactly("app/Service", "lib/Other");
  }

  @Test
  void aFilteredTransformerCanBeRemovedByTheInstanceItWasAddedAs() {
    DeferringInstrumentation filtered =
        new DeferringInstrumentation(null, deferred).filtered((name, loader, bytes) -> true);
    filtered.addTransformer(recording);
    assertThat(filtered.removeTransformer(recording)).isTrue();
    load("app/Service");
    assertThat(seen).isEmpty();
  }
}
