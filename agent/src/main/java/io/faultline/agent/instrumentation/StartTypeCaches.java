package io.faultline.agent.instrumentation;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.pool.TypePool;

/**
 * Byte Buddy's type descriptions kept while the agent starts, and dropped when {@link #close}d.
 *
 * <p>Without a cache every weave parses again the class files of the types it meets (the advice
 * classes, their annotations, the woven type's neighbours): at start, with a dozen types woven by
 * several modules each, about two thousand parses, and the JIT compilation of Byte Buddy's parser
 * they caused. Kept for the agent's life, the descriptions would hold some 3 MB and the
 * application's class loaders; so they are kept through the start only. Afterwards a weave (a class
 * loading late) describes what it needs afresh, as Byte Buddy does by default.
 */
final class StartTypeCaches implements AutoCloseable {

  /** Stands for the bootstrap loader, which a concurrent map cannot hold as {@code null}. */
  private static final Object BOOTSTRAP = new Object();

  private volatile boolean open = true;
  private final Map<Object, Cache> perLoader = new ConcurrentHashMap<>();
  private final Cache agentTypes = new Cache();

  /** The cache for types described from the agent's own jar (advice classes). */
  TypePool.CacheProvider agentTypes() {
    return agentTypes;
  }

  /** A pool strategy that caches each class loader's types while the start lasts. */
  AgentBuilder.PoolStrategy poolStrategy() {
    return new AgentBuilder.PoolStrategy.WithTypePoolCache(TypePool.Default.ReaderMode.FAST) {
      @Override
      protected TypePool.CacheProvider locate(ClassLoader loader) {
        if (!open) {
          return TypePool.CacheProvider.Simple.withObjectType();
        }
        return perLoader.computeIfAbsent(loader == null ? BOOTSTRAP : loader, l -> new Cache());
      }
    };
  }

  /** Drops every description kept, and keeps none from now on. */
  @Override
  public void close() {
    open = false;
    agentTypes.clear();
    perLoader.clear();
  }

  /** A name-to-description map while the start lasts, nothing after it. */
  private final class Cache implements TypePool.CacheProvider {
    private final ConcurrentMap<String, TypePool.Resolution> storage = new ConcurrentHashMap<>();

    @Override
    public TypePool.Resolution find(String name) {
      return open ? storage.get(name) : null;
    }

    @Override
    public TypePool.Resolution register(String name, TypePool.Resolution resolution) {
      if (!open) {
        return resolution;
      }
      TypePool.Resolution earlier = storage.putIfAbsent(name, resolution);
      return earlier == null ? resolution : earlier;
    }

    @Override
    public void clear() {
      storage.clear();
    }
  }
}
