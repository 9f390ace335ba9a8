package io.faultline.it.agent;

import io.faultline.it.servers.Brokers;
import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The soak (see {@link Soak}, {@link SoakSchedule}, {@link SoakChecks}): the chaos service at a
 * steady load with client churn, pool resizes and new destinations, and, in the long form, the
 * chaos faults on a schedule. The long form runs only through {@code ./soak} (which sets {@code
 * faultline.soak.minutes}); a 150-second cut without faults runs in the default suite. Each writes
 * {@code soak.csv} and {@code soak.png} under {@code faultline.soak.dir} ({@code target/soak} by
 * default) and prints a summary table; see docs/reliability.md.
 */
@ExtendWith(RealServers.class)
@Tag("soak")
class SoakTest {

  /** The default suite's cut: with the service's start and stop, within 3.5 minutes. */
  private static final Duration CUT = Duration.ofSeconds(150);

  @Test
  @Timeout(value = 210, unit = TimeUnit.SECONDS)
  void faultFreeCut(KafkaCluster kafka, PostgresServer postgres) throws Exception {
    check(Soak.run(kafka, postgres, CUT, false));
  }

  @Test
  @EnabledIfSystemProperty(named = "faultline.soak.minutes", matches = "[0-9.]+")
  @Timeout(value = 25, unit = TimeUnit.HOURS)
  void soak(@Brokers(value = 1, dedicated = true) KafkaCluster kafka, PostgresServer postgres)
      throws Exception {
    double minutes = Double.parseDouble(System.getProperty("faultline.soak.minutes"));
    boolean faults = !Boolean.getBoolean("faultline.soak.noFaults");
    check(Soak.run(kafka, postgres, Duration.ofSeconds((long) (minutes * 60)), faults));
  }

  private static void check(Soak.Run run) throws Exception {
    SoakReport.write(run, Path.of(System.getProperty("faultline.soak.dir", "target/soak")));
    SoakChecks.assertPasses(run);
  }
}
