package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/** The shaded jar: nothing outside Faultline's namespace, the manifest an agent needs, the CLI. */
class AgentJarTest {

  @Test
  void everyClassIsUnderIoFaultlineAndNothingButFaultlineAndMetaInfIsInTheJar() throws IOException {
    List<String> outside = new ArrayList<>();
    List<String> entries = new ArrayList<>();
    try (JarFile jar = new JarFile(ChildJvm.agentJar().toFile())) {
      for (JarEntry entry : Collections.list(jar.entries())) {
        String name = entry.getName();
        entries.add(name);
        boolean ours = name.startsWith("io/faultline/") || name.equals("io/");
        boolean meta = name.startsWith("META-INF/") && !name.endsWith(".class");
        if (!ours && !meta) {
          outside.add(name);
        }
      }
    }
    assertThat(outside)
        .as("entries outside io/faultline/ and META-INF/ (or classes in META-INF)")
        .isEmpty();
    assertThat(entries)
        .contains(
            "io/faultline/agent/FaultlineAgent.class",
            "io/faultline/shaded/asm/ClassReader.class",
            "io/faultline/shaded/io/micrometer/prometheusmetrics/PrometheusMeterRegistry.class",
            "io/faultline/shaded/jna/jna.jar")
        .noneMatch(
            n ->
                n.startsWith("org/apache/kafka/")
                    || n.startsWith("org/jooq/")
                    || n.contains("bytebuddy"));
  }

  @Test
  void manifestDeclaresTheAgentEntryPointsAndTheCommandLine() throws IOException {
    try (JarFile jar = new JarFile(ChildJvm.agentJar().toFile())) {
      Attributes main = jar.getManifest().getMainAttributes();
      assertThat(main.getValue("Premain-Class")).isEqualTo("io.faultline.agent.FaultlineAgent");
      assertThat(main.getValue("Agent-Class")).isEqualTo("io.faultline.agent.FaultlineAgent");
      assertThat(main.getValue("Main-Class")).isEqualTo("io.faultline.agent.Main");
      assertThat(main.getValue("Can-Retransform-Classes")).isEqualTo("true");
      assertThat(main.getValue("Can-Redefine-Classes")).isEqualTo("true");
    }
  }

  @Test
  void commandLineVersionHelpUnknownAndDoctor() throws Exception {
    assertThat(cli("version").exitCode()).isZero();
    assertThat(cli("version").stdout()).startsWith("faultline-agent 0.");
    ChildJvm.Result help = cli("help");
    assertThat(help.exitCode()).isZero();
    assertThat(help.stdout()).contains("doctor", "explain", "version", "-javaagent:");
    ChildJvm.Result unknown = cli("frobnicate");
    assertThat(unknown.exitCode()).isEqualTo(64);
    assertThat(unknown.stderr()).contains("unknown command 'frobnicate'", "Usage:");
    assertThat(cli().exitCode()).isEqualTo(64);
    ChildJvm.Result doctor = cli("doctor");
    assertThat(doctor.exitCode()).as(doctor.stderr()).isBetween(0, 2);
    assertThat(doctor.stdout()).contains("tcp_syncookies");
  }

  @Test
  void commandLineExplainReadsTheRelocatedCatalogs() throws Exception {
    ChildJvm.Result explain = cli("explain", "JOOQ_SAVEPOINT_AFTER_ROW_LOCK");
    assertThat(explain.exitCode()).as(explain.stderr()).isZero();
    assertThat(explain.stdout())
        .startsWith("JOOQ_SAVEPOINT_AFTER_ROW_LOCK\n")
        .contains(
            "Default severity: CRITICAL",
            "The Channel.io PostgreSQL outage (docs/incidents.md#channel-io-postgresql)",
            "docs/findings.md#jooq_savepoint_after_row_lock");
    ChildJvm.Result unknown = cli("explain", "NOT_A_FINDING");
    assertThat(unknown.exitCode()).isEqualTo(64);
    assertThat(unknown.stderr())
        .contains(
            "no finding with id 'NOT_A_FINDING'", "KAFKA_WINDOW_SCALING_OFF", "SYN_COOKIES_SENT");
  }

  private static ChildJvm.Result cli(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Jdk.current().java().toString());
    command.add("-jar");
    command.add(ChildJvm.agentJar().toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).start();
    String out = new String(process.getInputStream().readAllBytes());
    String err = new String(process.getErrorStream().readAllBytes());
    return new ChildJvm.Result(process.waitFor(), true, out, err);
  }
}
