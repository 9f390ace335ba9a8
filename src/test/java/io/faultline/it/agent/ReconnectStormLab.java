package io.faultline.it.agent;

import io.faultline.it.servers.RequiresDocker;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The reconnect-storm benchmark at full scale (issue #6's proof); it asserts nothing, it measures.
 * Off unless {@code -Dfaultline.bench.storm=true}:
 *
 * <pre>
 * ./mvnw -B verify -pl src/test -am -Dtest=ReconnectStormLab -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dfaultline.bench.storm=true
 * python3 src/test/bench/plot_reconnect_storm.py src/test/target/reconnect-storm/series.csv \
 *     docs/reconnect-storm.png
 * </pre>
 *
 * <p>Size: {@code -Dfaultline.bench.storm.jvms} (2), {@code .producers} and {@code .consumers} per
 * JVM (125 each), {@code .window-ms} (3000, the default window), {@code .backlog} (16), {@code
 * .observe-s} (18: seconds sampled after the election), {@code .send-interval-ms} (100: between two
 * records of one producer), {@code .fetch-min-bytes} (1) and {@code .fetch-max-wait-ms} (200: the
 * consumers'). Prints the table and writes it with the per-10 ms series to {@code
 * src/test/target/reconnect-storm/}.
 */
@RequiresDocker("the brokers' own network namespaces with small listen queues")
@EnabledIfSystemProperty(named = "faultline.bench.storm", matches = "true")
class ReconnectStormLab {

  @Test
  void measure() throws Exception {
    ReconnectStorm.Scale scale =
        new ReconnectStorm.Scale(
            Integer.getInteger("faultline.bench.storm.jvms", 2),
            Integer.getInteger("faultline.bench.storm.producers", 125),
            Integer.getInteger("faultline.bench.storm.consumers", 125),
            Duration.ofMillis(Integer.getInteger("faultline.bench.storm.window-ms", 3000)),
            Integer.getInteger("faultline.bench.storm.backlog", 16),
            Duration.ofSeconds(Integer.getInteger("faultline.bench.storm.observe-s", 18)),
            Duration.ofMillis(Integer.getInteger("faultline.bench.storm.send-interval-ms", 100)),
            new ReconnectStorm.Fetch(
                Integer.getInteger("faultline.bench.storm.fetch-min-bytes", 1),
                Duration.ofMillis(
                    Integer.getInteger("faultline.bench.storm.fetch-max-wait-ms", 200))));
    Path out = Path.of("target", "reconnect-storm");
    ReconnectStorm.Result r = new ReconnectStorm(scale, out).run();
    String table = StormReport.table(r);
    System.out.println(table);
    ReconnectStorm.writeFile(out.resolve("table.md"), table);
    ReconnectStorm.writeFile(out.resolve("series.csv"), StormReport.csv(r));
  }
}
