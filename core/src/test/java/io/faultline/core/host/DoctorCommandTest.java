package io.faultline.core.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DoctorCommandTest {

  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return new DoctorCommand()
        .run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void theRiskyTreeIsCriticalAndTheTableSaysWhatToDo() {
    Path root = FixtureTree.copy("risky", dir).root;
    assertThat(run("--root", root.toString())).isEqualTo(2);
    assertThat(out())
        .contains("CHECK", "STATUS", "EVIDENCE")
        .contains("SYN_COOKIE_WSCALE_KERNEL_BUG", "EPHEMERAL_PORTS_LOW", "what to do:")
        .contains("Running in a container");
    assertThat(err()).isEmpty();
  }

  @Test
  void warningsOnlyExitOne() {
    FixtureTree t = FixtureTree.copy("healthy", dir).sysctl("net.core.somaxconn", "128");
    assertThat(run("--root", t.root.toString())).isEqualTo(1);
  }

  @Test
  void flagsOverrideTheThresholds() {
    Path root = FixtureTree.copy("healthy", dir).root;
    assertThat(run("--root=" + root, "--expected-connections", "100", "--target-bdp", "1MiB"))
        .isZero();
    assertThat(run("--root", root.toString(), "--target-bdp", "1GiB")).isEqualTo(1);
    assertThat(out()).contains("SOCKET_BUFFER_CEILING_LOW");
  }

  @Test
  void jsonCarriesTheSameFindings() {
    Path root = FixtureTree.copy("risky", dir).root;
    assertThat(run("--json", "--root", root.toString())).isEqualTo(2);
    String json = out().trim();
    assertThat(json).startsWith("{\"root\":").endsWith("}");
    assertThat(json)
        .contains("\"exitCode\":2")
        .contains("\"id\":\"EPHEMERAL_PORTS_LOW\"")
        .contains("\"time_wait\":27012")
        .contains("\"status\":\"NOT_SAMPLED\"")
        .doesNotContain("\n");
  }

  @Test
  void sampleTakesTwoReadings() {
    Path root = FixtureTree.copy("risky", dir).root;
    run("--sample", "10ms", "--root", root.toString());
    assertThat(out()).contains("sampling for 10ms").doesNotContain("NOT_SAMPLED");
  }

  @Test
  void helpPrintsUsage() {
    assertThat(run("--help")).isZero();
    assertThat(out()).contains("Usage: doctor", "--sample", "--json", "--root");
  }

  @Test
  void unknownFlagsAndBadValuesAreUsageErrorsWithoutStackTraces() {
    assertThat(run("--frobnicate")).isEqualTo(DoctorCommand.EXIT_USAGE);
    assertThat(err()).contains("unknown option: --frobnicate", "Usage: doctor");
    err.reset();
    assertThat(run("--sample", "soon")).isEqualTo(DoctorCommand.EXIT_USAGE);
    assertThat(err()).contains("--sample soon: expected a duration");
    err.reset();
    assertThat(run("--sample")).isEqualTo(DoctorCommand.EXIT_USAGE);
    assertThat(err()).contains("--sample needs a value");
    err.reset();
    assertThat(run("--root", dir.resolve("nope").toString())).isEqualTo(DoctorCommand.EXIT_USAGE);
    assertThat(err()).contains("not a directory").doesNotContain("Exception");
    assertThat(out()).isEmpty();
  }
}
