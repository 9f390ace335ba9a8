package io.faultline.it.servers;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands a test real servers as parameters: a {@link KafkaCluster} (size and sharing by {@link
 * Brokers}) and a {@link PostgresServer}. Shared servers start once per test JVM, on first use, and
 * stop when the run ends; images are built once and reused (see {@link LocalImages}).
 *
 * <pre>{@code
 * @ExtendWith(RealServers.class)
 * class ProducerTest {
 *   @Test
 *   void sends(@Brokers(3) KafkaCluster kafka, PostgresServer postgres) { ... }
 * }
 * }</pre>
 */
public final class RealServers implements ParameterResolver {

  private static final Namespace NAMESPACE = Namespace.create(RealServers.class);
  private static final Map<String, Object> LOCKS = new ConcurrentHashMap<>();

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
    Class<?> type = parameter.getParameter().getType();
    return type == KafkaCluster.class || type == PostgresServer.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
    if (parameter.getParameter().getType() == PostgresServer.class) {
      return shared(extension, "postgres", RealServers::startPostgres);
    }
    Brokers brokers = parameter.findAnnotation(Brokers.class).orElse(null);
    int size = brokers == null ? 1 : brokers.value();
    if (size < 1 || size > 3) {
      throw new IllegalArgumentException("@Brokers takes 1 to 3 nodes, not " + size);
    }
    if (brokers != null && brokers.dedicated()) {
      // Closed with the test class's store, so the next class starts clean.
      ExtensionContext owner =
          extension.getTestClass().isPresent() ? classContext(extension) : extension;
      return owner
          .getStore(NAMESPACE)
          .getOrComputeIfAbsent(
              "kafka-dedicated-" + size + "-" + parameter.getIndex(),
              k -> startKafka(size),
              KafkaCluster.class);
    }
    return shared(extension, "kafka-" + size, () -> startKafka(size));
  }

  private static ExtensionContext classContext(ExtensionContext context) {
    ExtensionContext current = context;
    while (current.getTestMethod().isPresent() && current.getParent().isPresent()) {
      current = current.getParent().get();
    }
    return current;
  }

  private static <T> T shared(
      ExtensionContext extension, String key, java.util.function.Supplier<T> start) {
    // The root store closes AutoCloseable values when the whole run ends.
    synchronized (LOCKS.computeIfAbsent(key, k -> new Object())) {
      @SuppressWarnings("unchecked")
      T server =
          (T) extension.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(key, k -> start.get());
      return server;
    }
  }

  private static KafkaCluster startKafka(int size) {
    long start = System.nanoTime();
    KafkaCluster cluster =
        ServerMode.current() == ServerMode.DOCKER
            ? new DockerKafkaCluster(size)
            : new EmbeddedKafkaCluster(size);
    System.out.printf(
        "[faultline-it] kafka (%d node%s, %s) ready at %s in %.1f s%n",
        size,
        size == 1 ? "" : "s",
        ServerMode.current(),
        cluster.bootstrapServers(),
        (System.nanoTime() - start) / 1e9);
    return cluster;
  }

  /**
   * A PostgreSQL of the caller's own (the caller closes it) that can {@link
   * PostgresServer#stopAndStart stop and start}: a container whose published port stays the same
   * across a restart. Docker mode only.
   */
  public static PostgresServer restartablePostgres() {
    if (ServerMode.current() != ServerMode.DOCKER) {
      throw new IllegalStateException("a restartable PostgreSQL needs the Docker mode");
    }
    return new DockerPostgres(true);
  }

  private static PostgresServer startPostgres() {
    long start = System.nanoTime();
    PostgresServer server =
        ServerMode.current() == ServerMode.DOCKER
            ? new DockerPostgres()
            : new EmbeddedPostgresServer();
    System.out.printf(
        "[faultline-it] postgresql (%s) ready at %s in %.1f s%n",
        ServerMode.current(), server.jdbcUrl(), (System.nanoTime() - start) / 1e9);
    return server;
  }
}
