package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.matrix.MatrixReport;
import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The version matrix's kafka-clients column ({@code ./mvnw verify -Pmatrix}): {@link
 * KafkaClientsCheck} on each kafka-clients minor the profile copies, against the suite's real
 * broker. Each module that works must show its data and each that cannot must decline cleanly, and
 * the modules that decline must be exactly those {@link #DECLINES} lists for that minor: a version
 * that loses a module, or gains one, fails here until this list and docs/compatibility.md say so.
 */
@Tag("matrix")
@EnabledIfSystemProperty(named = "faultline.it.matrix.kafka", matches = ".+")
@ExtendWith(RealServers.class)
class KafkaClientsMatrixTest {

  /**
   * The config advisor reads a client's configuration where {@code ClientUtils.createNetworkClient(
   * AbstractConfig, ...)} builds its network client; kafka-clients before 3.6 (3.5.2 checked) build
   * it in each client's constructor and have no such method, so the module declines them (the
   * stagger cap then uses Kafka's default timeouts, as its optional advice on the same method is
   * not woven).
   */
  private static final List<String> WITHOUT_CREATE_NETWORK_CLIENT =
      List.of("kafka-clients-3.9-advice");

  /**
   * kafka-clients 2.2 (the suite's unsupported version) also lacks the {@code Selector} methods the
   * request phases are timed in ({@code write(KafkaChannel)}; receives were staged), so the phases
   * module declines it too; the connection gauges and the stagger still work.
   */
  private static final List<String> WITHOUT_PHASES =
      List.of("kafka-clients-3.9-advice", KafkaClientsCheck.PHASES);

  /** The modules that decline each kafka-clients minor; a minor not listed declines none. */
  private static final Map<String, List<String>> DECLINES =
      Map.of(
          "2.2", WITHOUT_PHASES,
          "2.8", WITHOUT_CREATE_NETWORK_CLIENT,
          "3.0", WITHOUT_CREATE_NETWORK_CLIENT,
          "3.3", WITHOUT_CREATE_NETWORK_CLIENT);

  static List<String> versions() {
    return MatrixReport.versions("faultline.it.matrix.kafka");
  }

  @ParameterizedTest(name = "kafka-clients {0}")
  @MethodSource("versions")
  void agentOnKafkaClients(String version, KafkaCluster kafka) throws Exception {
    String minor = version.substring(0, version.lastIndexOf('.'));
    List<String> expected = DECLINES.getOrDefault(minor, List.of());
    MatrixReport.check(
        "kafka-clients",
        version,
        Jdk.current().name().replace("jdk", "JDK "),
        () -> {
          KafkaClientsCheck.Outcome outcome =
              KafkaClientsCheck.run(kafka, version, MatrixReport.jar("kafka-clients", version));
          assertThat(outcome.declined())
              .as("kafka-clients %s: modules that declined it; %s", version, outcome.reasons())
              .isEqualTo(expected);
          if (expected.isEmpty()) {
            return MatrixReport.Cell.supported(outcome.checked());
          }
          String which = String.join(", ", expected) + " declined cleanly";
          return expected.contains(KafkaClientsCheck.PHASES)
              ? MatrixReport.Cell.declined(which, outcome.checked())
              : new MatrixReport.Cell("supported; " + which, outcome.checked());
        });
  }

  @AfterAll
  static void report() {
    MatrixReport.write();
  }
}
