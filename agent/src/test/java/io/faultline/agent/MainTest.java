package io.faultline.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

class MainTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.run(args, new PrintStream(out, true), new PrintStream(err, true));
  }

  @Test
  void versionPrintsTheBuildVersion() {
    assertThat(run("version")).isZero();
    assertThat(out.toString()).startsWith("faultline-agent 0.").doesNotContain("${");
  }

  @Test
  void helpListsTheCommands() {
    assertThat(run("help")).isZero();
    assertThat(out.toString()).contains("doctor", "version", "-javaagent:");
  }

  @Test
  void unknownOrMissingCommandIsAUsageError() {
    assertThat(run("bogus")).isEqualTo(64);
    assertThat(err.toString()).contains("unknown command 'bogus'", "Usage:");
    assertThat(run()).isEqualTo(64);
  }
}
