package io.faultline.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
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
    assertThat(out.toString()).contains("doctor", "explain", "version", "-javaagent:");
  }

  @Test
  void explainPrintsAFindingsDocumentationFromItsDeclaration() {
    assertThat(run("explain", "kafka_window_scaling_off")).isZero();
    String text = out.toString();
    assertThat(text)
        .startsWith("KAFKA_WINDOW_SCALING_OFF\n")
        .contains(
            "A broker connection has no TCP window scaling",
            "Default severity: WARNING",
            "Why it matters:",
            "What to do:",
            "kafka.recycle=on",
            "The Tencent CKafka incident (docs/incidents.md#tencent-ckafka)",
            "docs/findings.md#kafka_window_scaling_off")
        .doesNotContainIgnoringCase("seed 0");
    assertThat(text.lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(100));
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void explainFindsTheFindingsOfEveryModule() {
    for (String id :
        List.of(
            "CONFIGURATION_REJECTED",
            "SYN_COOKIES_SENT",
            "JOOQ_SAVEPOINT_AFTER_ROW_LOCK",
            "PG_MULTIXACT_SLRU_THRASH",
            "TX_NESTED_TRANSACTIONAL")) {
      out.reset();
      assertThat(run("explain", id)).as(id).isZero();
      assertThat(out.toString()).as(id).startsWith(id + "\n");
    }
  }

  @Test
  void explainWithAnUnknownIdListsTheKnownOnes() {
    assertThat(run("explain", "NO_SUCH_FINDING")).isEqualTo(64);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString())
        .contains("no finding with id 'NO_SUCH_FINDING'", "Known finding ids:")
        .contains("  KAFKA_TRANSMIT_BOUND\n", "  NET_RX_SOFTIRQ_ON_ONE_CPU\n");
  }

  @Test
  void explainWithoutAnIdSaysSoAndListsTheKnownOnes() {
    assertThat(run("explain")).isEqualTo(64);
    assertThat(err.toString())
        .contains("explain needs one finding id", "Known finding ids:", "  PG_LONG_TRANSACTION\n");
  }

  @Test
  void unknownOrMissingCommandIsAUsageError() {
    assertThat(run("bogus")).isEqualTo(64);
    assertThat(err.toString()).contains("unknown command 'bogus'", "Usage:");
    assertThat(run()).isEqualTo(64);
  }
}
