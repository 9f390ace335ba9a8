package io.faultline.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Runs the demo as {@code ./demo --no-wait} would (a child JVM on the launcher's class path, real
 * embedded PostgreSQL, the built agent jar) and checks that every scene found what it should: the
 * PostgreSQL scenes and the connection churn by default (about 40 s), every scene — the Kafka ones
 * too — with {@code -Dfaultline.demo.all=true} (about 2 min).
 */
class DemoRunTest {

  private static final List<String> QUICK =
      List.of("savepoint", "runaway-query", "long-transaction", "connection-churn");

  @Test
  void everySceneThatRunsFindsWhatItShould() throws Exception {
    boolean all = Boolean.getBoolean("faultline.demo.all");
    List<String> scenes = all ? DemoLauncher.allScenes().stream().map(Scene::name).toList() : QUICK;
    Path module = Path.of("").toAbsolutePath();
    Path output = module.resolve("target/demo-run-test.txt");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Dfaultline.demo.home=" + module.getParent().getParent());
    command.add("-cp");
    command.add(
        module.resolve("target/classes")
            + File.pathSeparator
            + Files.readString(module.resolve("target/launcher.classpath")).strip());
    command.add(DemoLauncher.class.getName());
    command.add("--no-wait");
    for (String s : scenes) {
      command.add("--scene");
      command.add(s);
    }
    Process demo =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .redirectInput(ProcessBuilder.Redirect.PIPE)
            .start();
    demo.getOutputStream().close();
    boolean ended = demo.waitFor(6, TimeUnit.MINUTES);
    if (!ended) {
      demo.descendants().forEach(ProcessHandle::destroy);
      demo.destroy();
      demo.waitFor(60, TimeUnit.SECONDS);
    }
    String out = Files.readString(output, StandardCharsets.UTF_8);
    System.out.println(out);
    assertThat(ended).as("the demo ended within 6 min; its output:\n%s", out).isTrue();
    assertThat(demo.exitValue()).as("exit status; output:\n%s", out).isZero();
    String summary = out.substring(out.indexOf("== Summary"));
    for (Scene scene : DemoLauncher.allScenes()) {
      if (!scenes.contains(scene.name())) {
        continue;
      }
      String row =
          summary
              .lines()
              .filter(l -> l.trim().startsWith(scene.name() + " "))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no summary row for " + scene.name()));
      assertThat(row).as(scene.name()).containsPattern(" (yes|skipped) ");
      if (!row.contains(" skipped ")) {
        assertThat(out).contains("[" + scene.name() + "]");
        if (scene.expected().matches("[A-Z_]+")) {
          assertThat(out).contains("Faultline found: " + scene.expected());
        }
      }
    }
    assertThat(out).doesNotContain("agent reported errors of its own");
  }
}
