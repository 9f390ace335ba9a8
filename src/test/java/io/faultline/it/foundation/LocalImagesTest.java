package io.faultline.it.foundation;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.LocalImages;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.it.servers.RequiresDocker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Images are built once and reused: asking again never rebuilds within a run or across runs. */
@ExtendWith(RealServers.class)
@RequiresDocker("it checks the Docker images themselves")
class LocalImagesTest {

  @Test
  void askingForAnImageAgainReusesIt(KafkaCluster kafka, PostgresServer postgres) {
    String kafkaImage = LocalImages.kafka();
    String postgresImage = LocalImages.postgres();

    assertThat(LocalImages.kafka()).isEqualTo(kafkaImage);
    assertThat(LocalImages.postgres()).isEqualTo(postgresImage);
    assertThat(LocalImages.outcome(kafkaImage)).isNotNull();
    assertThat(LocalImages.outcome(postgresImage)).isNotNull();
    System.out.println(
        "[faultline-it] images this run: "
            + kafkaImage
            + " "
            + LocalImages.outcome(kafkaImage)
            + ", "
            + postgresImage
            + " "
            + LocalImages.outcome(postgresImage));
  }
}
