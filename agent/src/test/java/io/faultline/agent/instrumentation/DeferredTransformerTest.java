package io.faultline.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.instrument.ClassFileTransformer;
import java.nio.charset.StandardCharsets;
import java.security.ProtectionDomain;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class DeferredTransformerTest {

  private static final ClassLoader APP = DeferredTransformerTest.class.getClassLoader();

  private final DeferredTransformer deferred =
      new DeferredTransformer((name, loader, bytes) -> name.startsWith("org.apache.kafka."), null);

  private byte[] load(String internalName, byte[] bytes) throws Exception {
    return deferred.transform(
        Object.class.getModule(), APP, internalName, null, (ProtectionDomain) null, bytes);
  }

  /** A transformer that appends {@code suffix} to every class file it sees. */
  private static ClassFileTransformer appending(String suffix) {
    return new ClassFileTransformer() {
      @Override
      public byte[] transform(
          Module module,
          ClassLoader loader,
          String className,
          Class<?> redefined,
          ProtectionDomain domain,
          byte[] bytes) {
        return (new String(bytes, StandardCharsets.UTF_8) + suffix)
            .getBytes(StandardCharsets.UTF_8);
      }
    };
  }

  @Test
  void aTargetedClassWaitsForTheInstallationAndIsThenWovenByTheModulesInstalledMeanwhile()
      throws Exception {
    CompletableFuture<byte[]> loading =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return load("org/apache/kafka/clients/NetworkClient", bytes("class"));
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });

    assertThat(waitsAtLeast(loading, 300)).as("waits while installing").isTrue();
    deferred.add(appending("+a"));
    deferred.add(appending("+b"));
    deferred.ready();

    assertThat(new String(loading.get(5, TimeUnit.SECONDS), StandardCharsets.UTF_8))
        .isEqualTo("class+a+b");
  }

  @Test
  void anUntargetedClassLoadsAtOnceAndUnchanged() throws Exception {
    assertThat(load("com/example/Main", bytes("main"))).isNull();
  }

  @Test
  void theInstallingThreadNeverWaits() throws Exception {
    deferred.installingOn(Thread.currentThread());

    assertThat(load("org/apache/kafka/clients/NetworkClient", bytes("class"))).isNull();
  }

  @Test
  void aRemovedTransformerIsNoLongerCalled() throws Exception {
    ClassFileTransformer a = appending("+a");
    deferred.add(a);
    deferred.ready();
    assertThat(load("x/Y", bytes("y"))).isEqualTo(bytes("y+a"));

    assertThat(deferred.remove(a)).isTrue();
    assertThat(load("x/Y", bytes("y"))).isNull();
  }

  @Test
  void classFileBytesFindsAnAnnotationDescriptor() {
    byte[] file = bytes("....Lorg/springframework/transaction/annotation/Transactional;....");

    assertThat(ClassFileBytes.contains(file, bytes("/Transactional;"))).isTrue();
    assertThat(ClassFileBytes.contains(bytes("Lcom/x/Other;"), bytes("/Transactional;"))).isFalse();
    assertThat(ClassFileBytes.contains(null, bytes("x"))).isFalse();
  }

  private static boolean waitsAtLeast(CompletableFuture<?> future, long millis) throws Exception {
    try {
      future.get(millis, TimeUnit.MILLISECONDS);
      return false;
    } catch (TimeoutException e) {
      return true;
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
