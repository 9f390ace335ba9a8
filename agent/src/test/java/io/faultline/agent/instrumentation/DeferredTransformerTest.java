package io.faultline.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.agent.net.ConnectChurnModule;
import java.lang.instrument.ClassFileTransformer;
import java.nio.charset.StandardCharsets;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

// A load that waits (the hang this class guards against) blocks the test's own thread: each test
// runs on a thread of its own, so a wait that does not return fails the test after 60 s instead of
// hanging the build.
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DeferredTransformerTest {

  private static final ClassLoader APP = DeferredTransformerTest.class.getClassLoader();

  /** The module the tests' gate names for kafka-clients classes. */
  private static final List<InstrumentationModule> KAFKA = List.of(new NamedModule("kafka"));

  private final DeferredTransformer deferred =
      new DeferredTransformer(
          (name, loader, bytes) -> name.startsWith("org/apache/kafka/") ? KAFKA : List.of(), null);

  /**
   * A module that names no targets and may weave the classes under a prefix, with nothing to weave:
   * what the gate hands over is all that is tested.
   */
  private record NamedModule(String name, String prefix) implements InstrumentationModule {
    NamedModule(String name) {
      this(name, "org/apache/kafka/");
    }

    @Override
    public String feature() {
      return name;
    }

    @Override
    public boolean mayWeave(String internalName, ClassLoader loader, byte[] classFile) {
      return internalName.startsWith(prefix);
    }

    @Override
    public List<TypeInstrumentation> types() {
      return List.of();
    }
  }

  /** A module that names its targets (and would say yes to anything if asked otherwise). */
  private record TargetsModule(String name, List<String> targetNames)
      implements InstrumentationModule {
    @Override
    public String feature() {
      return name;
    }

    @Override
    public boolean mayWeave(String internalName, ClassLoader loader, byte[] classFile) {
      return true;
    }

    @Override
    public List<TypeInstrumentation> types() {
      return List.of();
    }
  }

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
  void aTargetedClassLoadsAtOnceDuringTheStartAndIsHandedOverForALateWeave() throws Exception {
    CompletableFuture<byte[]> loading =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return load("org/apache/kafka/clients/NetworkClient", bytes("class"));
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });

    assertThat(loading.get(5, TimeUnit.SECONDS)).as("no module yet: loads unchanged").isNull();
    List<DeferredTransformer.EarlyClass> early = deferred.endStartup(1000);
    assertThat(early)
        .extracting(DeferredTransformer.EarlyClass::name)
        .containsExactly("org.apache.kafka.clients.NetworkClient");
    assertThat(early.get(0).mayBeWovenBy(KAFKA.get(0))).isTrue();
    assertThat(early.get(0).mayBeWovenBy(new NamedModule("jooq"))).isFalse();
    assertThat(deferred.startupNanos()).isPositive();
  }

  @Test
  void anUntargetedClassLoadsUnchangedAndIsNotHandedOver() throws Exception {
    assertThat(load("com/example/Main", bytes("main"))).isNull();
    assertThat(deferred.endStartup(1000)).isEmpty();
  }

  @Test
  void duringTheStartEvenInstalledModulesAreLeftToTheAgentsThread() throws Exception {
    deferred.add(appending("+a"));

    assertThat(load("org/apache/kafka/X", bytes("class"))).isNull();
    assertThat(deferred.endStartup(1000))
        .extracting(DeferredTransformer.EarlyClass::name)
        .containsExactly("org.apache.kafka.X");
  }

  @Test
  void afterTheStartModulesWeaveLoadsInOrder() throws Exception {
    deferred.add(appending("+a"));
    deferred.add(appending("+b"));
    deferred.endStartup(1000);

    assertThat(new String(load("org/apache/kafka/X", bytes("class")), StandardCharsets.UTF_8))
        .isEqualTo("class+a+b");
  }

  @Test
  void theInstallingThreadsLoadsAreNeitherHandedOverNorCounted() throws Exception {
    deferred.installingOn(Thread.currentThread());

    assertThat(load("org/apache/kafka/clients/NetworkClient", bytes("class"))).isNull();
    assertThat(deferred.endStartup(1000)).isEmpty();
    assertThat(deferred.startupNanos()).isZero();
  }

  @Test
  void afterTheStartNothingIsHandedOverOrCounted() throws Exception {
    deferred.endStartup(1000);

    load("org/apache/kafka/clients/NetworkClient", bytes("class"));

    assertThat(deferred.endStartup(1000)).isEmpty();
    assertThat(deferred.startupNanos()).isZero();
  }

  @Test
  void theGateNamesEveryModuleThatMayWeaveAClassAndOnlyThose() {
    InstrumentationModule kafka = new NamedModule("kafka", "org/apache/kafka/");
    InstrumentationModule clients = new NamedModule("clients", "org/apache/kafka/clients/");
    InstrumentationModule jooq = new NamedModule("jooq", "org/jooq/");
    DeferredTransformer.Gate gate = DeferredTransformer.Gate.of(List.of(kafka, clients, jooq));

    assertThat(gate.modulesFor("org/apache/kafka/clients/NetworkClient", APP, new byte[0]))
        .containsExactly(kafka, clients);
    assertThat(gate.modulesFor("org/apache/kafka/common/Node", APP, new byte[0]))
        .containsExactly(kafka);
    assertThat(gate.modulesFor("org/jooq/impl/DSL", APP, new byte[0])).containsExactly(jooq);
    assertThat(gate.modulesFor("com/example/Main", APP, new byte[0])).isEmpty();
  }

  @Test
  void aModuleThatNamesItsTargetsIsNamedForThoseClassesOnly() {
    InstrumentationModule phases =
        new TargetsModule(
            "phases",
            List.of(
                "org.apache.kafka.clients.NetworkClient",
                "org.apache.kafka.common.network.Selector"));
    InstrumentationModule lifecycle =
        new TargetsModule("lifecycle", List.of("org.apache.kafka.clients.NetworkClient"));
    InstrumentationModule everyKafkaClass = new NamedModule("kafka");
    DeferredTransformer.Gate gate =
        DeferredTransformer.Gate.of(List.of(phases, lifecycle, everyKafkaClass));

    assertThat(gate.modulesFor("org/apache/kafka/clients/NetworkClient", APP, new byte[0]))
        .containsExactly(phases, lifecycle, everyKafkaClass);
    assertThat(gate.modulesFor("org/apache/kafka/common/network/Selector", APP, new byte[0]))
        .containsExactly(phases, everyKafkaClass);
    assertThat(gate.modulesFor("org/apache/kafka/common/Node", APP, new byte[0]))
        .as("not a named target: only the module that names none says yes")
        .containsExactly(everyKafkaClass);
    assertThat(
            DeferredTransformer.Gate.of(List.of(phases, lifecycle))
                .modulesFor("org/apache/kafka/clients/NetworkClient", null, new byte[0]))
        .as("a class of that name in the bootstrap loader is not kafka-clients'")
        .isEmpty();
  }

  @Test
  void aModuleThatCannotNameItsTargetsIsLeftOutOfTheGateAndTheOthersStay() {
    InstrumentationModule broken =
        new InstrumentationModule() {
          @Override
          public String name() {
            return "broken";
          }

          @Override
          public String feature() {
            return "broken";
          }

          @Override
          public List<String> targetNames() {
            throw new IllegalStateException("a bug in the module");
          }

          @Override
          public List<TypeInstrumentation> types() {
            return List.of();
          }
        };
    InstrumentationModule phases =
        new TargetsModule("phases", List.of("org.apache.kafka.clients.NetworkClient"));

    DeferredTransformer.Gate gate = DeferredTransformer.Gate.of(List.of(broken, phases));

    assertThat(gate.modulesFor("org/apache/kafka/clients/NetworkClient", APP, new byte[0]))
        .containsExactly(phases);
  }

  @Test
  void theGateNamesTheModuleThatWeavesJdkClassesForThoseJdkClassesOnly() {
    InstrumentationModule sockets = new ConnectChurnModule();
    InstrumentationModule kafka = new NamedModule("kafka");
    DeferredTransformer.Gate gate = DeferredTransformer.Gate.of(List.of(kafka, sockets));

    assertThat(gate.modulesFor("java/net/Socket", null, new byte[0])).containsExactly(sockets);
    assertThat(gate.modulesFor("sun/nio/ch/SocketChannelImpl", null, new byte[0]))
        .containsExactly(sockets);
    assertThat(gate.modulesFor("java/net/Socket", APP, new byte[0]))
        .as("a class of that name outside the bootstrap loader is not the JDK's")
        .isEmpty();
    assertThat(gate.modulesFor("java/lang/String", null, new byte[0])).isEmpty();
  }

  @Test
  void endingTheStartWaitsForALoadStillInTheTransformer() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    DeferredTransformer slowGate =
        new DeferredTransformer(
            (name, loader, bytes) -> {
              inside.countDown();
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return KAFKA;
            },
            null);
    CompletableFuture<byte[]> loading =
        CompletableFuture.supplyAsync(
            () ->
                slowGate.transform(
                    Object.class.getModule(),
                    APP,
                    "org/apache/kafka/Slow",
                    null,
                    (ProtectionDomain) null,
                    bytes("class")));
    assertThat(inside.await(5, TimeUnit.SECONDS)).isTrue();

    CompletableFuture<List<DeferredTransformer.EarlyClass>> ending =
        CompletableFuture.supplyAsync(() -> slowGate.endStartup(5000));
    assertThat(waitsAtLeast(ending, 200)).as("waits for the load in flight").isTrue();
    release.countDown();

    assertThat(ending.get(5, TimeUnit.SECONDS))
        .extracting(DeferredTransformer.EarlyClass::name)
        .containsExactly("org.apache.kafka.Slow");
    loading.get(5, TimeUnit.SECONDS);
  }

  @Test
  void countsEveryClassDefinedDuringAndAfterTheStartButNoRetransformation() throws Exception {
    load("org/apache/kafka/clients/NetworkClient", bytes("class"));
    load("com/example/Untargeted", bytes("class"));
    deferred.endStartup(1000);
    load("com/example/Later", bytes("class"));
    deferred.transform(
        Object.class.getModule(),
        APP,
        "java/lang/String",
        String.class,
        (ProtectionDomain) null,
        bytes("class"));

    assertThat(deferred.classesDefined()).isEqualTo(3);
  }

  @Test
  void aRemovedTransformerIsNoLongerCalled() throws Exception {
    ClassFileTransformer a = appending("+a");
    deferred.add(a);
    deferred.endStartup(1000);
    assertThat(load("x/Y", bytes("y"))).isEqualTo(bytes("y+a"));

    assertThat(deferred.remove(a)).isTrue();
    assertThat(load("x/Y", bytes("y"))).isNull();
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
