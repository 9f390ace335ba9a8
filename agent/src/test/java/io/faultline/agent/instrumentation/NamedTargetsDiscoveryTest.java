package io.faultline.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NamedTargetsDiscoveryTest {

  /** What the JVM reports as loaded; a test adds to it between rounds, as a retransform would. */
  private final List<Class<?>> loaded = new ArrayList<>();

  private final Instrumentation instrumentation =
      (Instrumentation)
          Proxy.newProxyInstance(
              getClass().getClassLoader(),
              new Class<?>[] {Instrumentation.class},
              (proxy, method, args) -> {
                if (method.getName().equals("getAllLoadedClasses")) {
                  return loaded.toArray(Class<?>[]::new);
                }
                throw new UnsupportedOperationException(method.getName());
              });

  @Test
  void aRoundHandsOutOnlyTheLoadedClassesWithATargetName() {
    loaded.addAll(List.of(String.class, java.net.Socket.class, Integer.class));
    Iterator<Iterable<Class<?>>> rounds =
        new NamedTargetsDiscovery(Set.of("java.net.Socket", "java.net.ServerSocket"))
            .resolve(instrumentation)
            .iterator();

    assertThat(rounds.hasNext()).isTrue();
    assertThat(rounds.next()).containsExactly(java.net.Socket.class);
    assertThat(rounds.hasNext()).as("no new target loaded").isFalse();
  }

  @Test
  void aTargetLoadedDuringARoundComesInTheNextOneAndNoTargetTwice() {
    loaded.add(java.net.Socket.class);
    Iterator<Iterable<Class<?>>> rounds =
        new NamedTargetsDiscovery(Set.of("java.net.Socket", "java.net.ServerSocket"))
            .resolve(instrumentation)
            .iterator();

    assertThat(rounds.next()).containsExactly(java.net.Socket.class);
    loaded.add(java.net.ServerSocket.class);
    assertThat(rounds.hasNext()).isTrue();
    assertThat(rounds.next()).containsExactly(java.net.ServerSocket.class);
    assertThat(rounds.hasNext()).isFalse();
  }

  @Test
  void noTargetLoadedMeansNoRound() {
    loaded.add(String.class);
    assertThat(
            new NamedTargetsDiscovery(Set.of("java.net.Socket"))
                .resolve(instrumentation)
                .iterator()
                .hasNext())
        .isFalse();
  }
}
