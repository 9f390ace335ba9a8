package io.faultline.it.foundation;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.LocalImages;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.it.servers.RequiresDocker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Images are built once and reused: asking again never rebuilds within a run or across runs. */
@ExtendWith(RealServers.class)
class LocalImagesTest {

  @Test
  @RequiresDocker("it checks the Docker images themselves")
  void askingForAnImageAgainReusesIt(KafkaCluster kafka, PostgresServer postgres) {
    String kafkaImage = LocalImages.kafka();
    String postgresImage = LocalImages.postgres();
    assertThat(kafkaImage).matches("faultline-it/kafka:[0-9a-f]{12}");
    assertThat(postgresImage).matches("faultline-it/postgres:[0-9a-f]{12}");
    String kafkaId = LocalImages.imageId(kafkaImage);
    String postgresId = LocalImages.imageId(postgresImage);
    System.out.println(
        "[faultline-it] images this run: "
            + kafkaImage
            + " "
            + LocalImages.outcome(kafkaImage)
            + ", "
            + postgresImage
            + " "
            + LocalImages.outcome(postgresImage));

    // Within the run: the same tag, the same image.
    assertThat(LocalImages.kafka()).isEqualTo(kafkaImage);
    assertThat(LocalImages.postgres()).isEqualTo(postgresImage);
    // Across runs: a new run finds the image in Docker and builds nothing.
    assertThat(LocalImages.ensureAsANewRun("kafka")).isEqualTo(LocalImages.Outcome.REUSED);
    assertThat(LocalImages.ensureAsANewRun("postgres")).isEqualTo(LocalImages.Outcome.REUSED);
    assertThat(LocalImages.imageId(kafkaImage)).as("not rebuilt").isEqualTo(kafkaId);
    assertThat(LocalImages.imageId(postgresImage)).as("not rebuilt").isEqualTo(postgresId);
  }

  @Test
  void theTagChangesWithTheBuildContextAndOnlyWithIt(@TempDir Path dir) throws IOException {
    Path a = Files.createDirectories(dir.resolve("a"));
    Path b = Files.createDirectories(dir.resolve("b"));
    for (Path context : new Path[] {a, b}) {
      Files.writeString(context.resolve("Dockerfile"), "FROM ${BASE_IMAGE}\nCOPY start.sh /\n");
      Files.writeString(context.resolve("start.sh"), "#!/bin/sh\nexec server\n");
    }
    assertThat(LocalImages.tag("x", a))
        .as("same files elsewhere")
        .isEqualTo(LocalImages.tag("x", b));

    Files.writeString(b.resolve("start.sh"), "#!/bin/sh\nexec server --changed\n");
    assertThat(LocalImages.tag("x", b))
        .as("a changed script")
        .isNotEqualTo(LocalImages.tag("x", a));

    String before = LocalImages.tag("x", a);
    Files.createDirectories(a.resolve("target/classes"));
    Files.writeString(a.resolve("target/classes/ignored.txt"), "build output");
    assertThat(LocalImages.tag("x", a))
        .as("build output outside target/broker-libs is not in the context")
        .isEqualTo(before);
    Files.createDirectories(a.resolve("target/broker-libs"));
    Files.writeString(a.resolve("target/broker-libs/kafka.jar"), "jar");
    assertThat(LocalImages.tag("x", a)).as("the broker jars are").isNotEqualTo(before);
  }
}
