package io.faultline.examples.servicetests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.List;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The servers the service's tests run: Testcontainers' own PostgreSQL and Kafka containers on the
 * official images, or the images {@code -Dexample.postgres.image} and {@code -Dexample.kafka.image}
 * name (a mirror, or images built locally).
 */
final class Servers {

  /** The port of {@link #kafkaOnItsAddress()}'s own listener. */
  private static final int OWN_ADDRESS_PORT = 19092;

  private Servers() {}

  static PostgreSQLContainer postgres() {
    return new PostgreSQLContainer(
        DockerImageName.parse(System.getProperty("example.postgres.image", "postgres:17"))
            .asCompatibleSubstituteFor("postgres"));
  }

  /**
   * A broker prepared for KafkaFaults (NET_ADMIN, forced SYN cookies), on a fixed host port: a
   * restart keeps the address it advertises.
   */
  static KafkaContainer kafka() {
    KafkaContainer kafka =
        new KafkaContainer(
            DockerImageName.parse(System.getProperty("example.kafka.image", "apache/kafka:4.1.0"))
                .asCompatibleSubstituteFor("apache/kafka"));
    kafka.setPortBindings(List.of(freePort() + ":9092"));
    return kafka;
  }

  /**
   * A broker that also listens on port 19092 of its own address, advertised as that address: a
   * client on the Docker host connects to the broker itself, not to the engine's port proxy, so its
   * connection's TCP options (window scaling) are the broker's. Needs an engine the tests run
   * beside (a Linux CI runner), where container addresses are reachable.
   */
  static KafkaContainer kafkaOnItsAddress() {
    KafkaContainer kafka = kafka();
    kafka.withListener("0.0.0.0:" + OWN_ADDRESS_PORT, () -> ownAddress(kafka));
    return kafka;
  }

  /** The bootstrap address of a broker from {@link #kafkaOnItsAddress()}. */
  static String ownAddress(KafkaContainer kafka) {
    return kafka.getContainerInfo().getNetworkSettings().getNetworks().values().stream()
            .map(n -> n.getIpAddress())
            .filter(ip -> ip != null && !ip.isEmpty())
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("the broker container has no address"))
        + ":"
        + OWN_ADDRESS_PORT;
  }

  static DataSource dataSource(PostgreSQLContainer postgres) {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setUrl(postgres.getJdbcUrl());
    ds.setUser(postgres.getUsername());
    ds.setPassword(postgres.getPassword());
    return ds;
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
