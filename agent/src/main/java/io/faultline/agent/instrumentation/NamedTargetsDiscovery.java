package io.faultline.agent.instrumentation;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import net.bytebuddy.agent.builder.AgentBuilder.RedefinitionStrategy.DiscoveryStrategy;

/**
 * Which loaded classes a module's retransformation considers: only those with one of its target
 * names, found by comparing names, in rounds until a round finds no new one (a target can load
 * while another one is retransformed; on JDK 25 {@code java.net.Socket} did during {@code
 * sun.nio.ch.SocketChannelImpl}, and the transformer's circularity lock skipped it).
 *
 * <p>Byte Buddy's own strategies hand it every loaded class, and it describes each one from its
 * class file before the name matcher is asked: at start that was some two thousand JDK class files
 * parsed, most of the agent's start-up CPU and of the JIT compilation it caused.
 */
final class NamedTargetsDiscovery implements DiscoveryStrategy {

  private final Set<String> names;

  NamedTargetsDiscovery(Set<String> names) {
    this.names = Set.copyOf(names);
  }

  @Override
  public Iterable<Iterable<Class<?>>> resolve(Instrumentation instrumentation) {
    return () -> new Rounds(instrumentation);
  }

  /** One round per call of {@link #next}: the targets loaded and not handed out before. */
  private final class Rounds implements Iterator<Iterable<Class<?>>> {
    private final Instrumentation instrumentation;
    private final Set<Class<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    private List<Class<?>> round;

    Rounds(Instrumentation instrumentation) {
      this.instrumentation = instrumentation;
    }

    @Override
    public boolean hasNext() {
      if (round == null) {
        round = new ArrayList<>();
        for (Class<?> type : instrumentation.getAllLoadedClasses()) {
          if (names.contains(type.getName()) && seen.add(type)) {
            round.add(type);
          }
        }
      }
      return !round.isEmpty();
    }

    @Override
    public Iterable<Class<?>> next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      List<Class<?>> found = round;
      round = null;
      return found;
    }
  }
}
