package io.faultline.it.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.faultline.it.servers.LocalImages;
import io.faultline.it.servers.RequiresDocker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The service-tests example's own test suite, run as its build would run it, on the suite's locally
 * built images (no registry answers here, so the example's build skips its tests and this runs
 * them): the database tests with {@code @FaultlineTest} and {@code PostgresFaults}, the unfixed
 * code failing its test, and the producers through a broker restart with {@code KafkaFaults}. Every
 * test passes.
 */
@RequiresDocker("the example's tests start Testcontainers' PostgreSQL and Kafka containers")
class ServiceTestsExampleTest {

  @AfterEach
  void clear() {
    System.clearProperty("example.postgres.image");
    System.clearProperty("example.kafka.image");
  }

  @Test
  void theExamplesTestsPassOnTheOfficialContainerModules() throws Exception {
    System.setProperty("example.postgres.image", LocalImages.postgres());
    System.setProperty("example.kafka.image", LocalImages.kafkaWithOfficialLayout());

    EngineExecutionResults results =
        EngineTestKit.engine("junit-jupiter")
            .selectors(
                selectClass(Class.forName("io.faultline.examples.servicetests.PaymentsTest")),
                selectClass(
                    Class.forName("io.faultline.examples.servicetests.PaymentEventsRestartTest")))
            .execute();

    results.testEvents().failed().stream()
        .forEach(
            e ->
                System.out.println(
                    "[faultline-it] failed: "
                        + e.getTestDescriptor().getDisplayName()
                        + ": "
                        + e.getPayload(org.junit.platform.engine.TestExecutionResult.class)
                            .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable)
                            .map(Throwable::toString)
                            .orElse("?")));
    assertThat(results.containerEvents().failed().count()).isZero();
    assertThat(results.testEvents().failed().count()).isZero();
    assertThat(results.testEvents().succeeded().count()).isEqualTo(4);
  }
}
