package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import example.otheragent.ClassFileReadingAgent;
import example.otheragent.JdkResourcesApp;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Faultline first on the command line, then an agent whose transformer reads a JDK class file while
 * a {@code sun.net.www.protocol.*} class loads (as the OpenTelemetry agent's matchers do).
 * Faultline's start thread reads JDK class files; had it made the JVM's first {@code jrt:} read,
 * the other agent's nested read would have failed with a {@code ClassCircularityError} that the JVM
 * keeps, breaking {@code jrt:} for the application and failing our modules (seen beside the
 * OpenTelemetry agent). The agent therefore loads those handlers in {@code premain}.
 */
@Tag("real-world")
class OtherAgentReadingClassFilesTest {

  private static final String OK = "jdk-resources: ok";
  private static final int REPEATS = 3;

  private static Path otherAgent;

  @BeforeAll
  static void buildOtherAgentJar() {
    otherAgent = agentJar(ClassFileReadingAgent.class);
  }

  @Test
  void theOtherAgentAloneBreaksAnApplicationWhoseMainReadsTheFirstClassFile() {
    // The hazard is real: without Faultline the application's own first jrt: read trips it.
    ChildJvm.Result alone =
        ChildJvm.on(Jdk.current())
            .withoutAgent()
            .option("-javaagent:" + otherAgent)
            .run(60, JdkResourcesApp.class.getName());
    assertThat(alone.stdout()).as("stdout; stderr:%n%s", alone.stderr()).doesNotContain(OK);
    assertThat(alone.stderr()).contains("other-agent: java.lang.ClassCircularityError");
  }

  @Test
  void faultlineFirstLeavesTheJdkWholeAndInstallsEveryModule() {
    for (int run = 1; run <= REPEATS; run++) {
      ChildJvm.Result result =
          ChildJvm.on(Jdk.current())
              .withoutAgent()
              .option("-javaagent:" + ChildJvm.agentJar())
              .option("-javaagent:" + otherAgent)
              .run(90, JdkResourcesApp.class.getName())
              .assertCleanExit();
      assertThat(result.stdout()).as("run %d; stderr:%n%s", run, result.stderr()).contains(OK);
      assertThat(result.stderr())
          .as("run %d", run)
          .doesNotContain("ClassCircularityError")
          .doesNotContain("is off")
          .doesNotContain("failed");
    }
  }

  /** A jar whose manifest names {@code agent} as its Premain-Class, holding its classes. */
  private static Path agentJar(Class<?> agent) {
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(new Attributes.Name("Premain-Class"), agent.getName());
    String dir = agent.getPackageName().replace('.', '/');
    Path classes = ChildJvm.testClasses().resolve(dir);
    try {
      Path jar =
          Files.createDirectories(Path.of("target", "agent-tests")).resolve("other-agent.jar");
      try (OutputStream file = Files.newOutputStream(jar);
          JarOutputStream out = new JarOutputStream(file, manifest);
          var listing = Files.list(classes)) {
        for (Path classFile :
            listing
                .filter(p -> p.getFileName().toString().startsWith(agent.getSimpleName()))
                .toList()) {
          out.putNextEntry(new JarEntry(dir + "/" + classFile.getFileName()));
          out.write(Files.readAllBytes(classFile));
          out.closeEntry();
        }
      }
      return jar;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
