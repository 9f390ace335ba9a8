package io.faultline.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;
import org.junit.jupiter.api.Test;

class StartTypeCachesTest {

  private final StartTypeCaches caches = new StartTypeCaches();
  private final TypePool.Resolution resolution =
      new TypePool.Resolution.Simple(TypeDescription.ForLoadedType.of(String.class));

  @Test
  void whileTheStartLastsADescriptionIsKept() {
    TypePool.CacheProvider cache = caches.agentTypes();
    assertThat(cache.register("a.B", resolution)).isSameAs(resolution);
    assertThat(cache.find("a.B")).isSameAs(resolution);
  }

  @Test
  void closedNothingIsKeptAndNothingFound() {
    TypePool.CacheProvider cache = caches.agentTypes();
    cache.register("a.B", resolution);
    caches.close();

    assertThat(cache.find("a.B")).isNull();
    assertThat(cache.register("a.C", resolution)).isSameAs(resolution);
    assertThat(cache.find("a.C")).isNull();
  }

  @Test
  void thePoolStrategyParsesAClassLoadersTypeOnceWhileOpenAndAgainOnceClosed() {
    ClassLoader loader = getClass().getClassLoader();
    CountingLocator locator = new CountingLocator(ClassFileLocator.ForClassLoader.of(loader));
    String name = StartTypeCachesTest.class.getName();

    methodsOf(caches.poolStrategy().typePool(locator, loader), name);
    methodsOf(caches.poolStrategy().typePool(locator, loader), name);
    assertThat(locator.reads).as("class files read for two pools while open").isEqualTo(1);

    caches.close();
    methodsOf(caches.poolStrategy().typePool(locator, loader), name);
    methodsOf(caches.poolStrategy().typePool(locator, loader), name);
    assertThat(locator.reads).as("class files read once closed").isEqualTo(3);
  }

  private static int methodsOf(TypePool pool, String name) {
    return pool.describe(name).resolve().getDeclaredMethods().size();
  }

  /** Counts the class files read through it. */
  private static final class CountingLocator implements ClassFileLocator {
    private final ClassFileLocator delegate;
    int reads;

    CountingLocator(ClassFileLocator delegate) {
      this.delegate = delegate;
    }

    @Override
    public Resolution locate(String name) throws java.io.IOException {
      reads++;
      return delegate.locate(name);
    }

    @Override
    public void close() throws java.io.IOException {
      delegate.close();
    }
  }
}
