package io.faultline.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentClassFilesTest {

  @TempDir Path agentCode;
  @TempDir Path elsewhere;

  @Test
  void readsTheAgentsCodeFirstThenTheAgentsLoader() throws IOException {
    write(agentCode, "io/faultline/agent/A.class", "agent's copy");
    write(elsewhere, "io/faultline/agent/A.class", "class path copy");
    write(elsewhere, "com/example/ExtensionAdvice.class", "extension");
    try (URLClassLoader agentLoader = new URLClassLoader(new URL[] {url(elsewhere)}, null);
        AgentClassFiles files = AgentClassFiles.of(url(agentCode), agentLoader)) {

      assertThat(read(files, "io/faultline/agent/A.class")).isEqualTo("agent's copy");
      assertThat(read(files, "com/example/ExtensionAdvice.class"))
          .as("advice of a module shipped in another jar")
          .isEqualTo("extension");
      assertThat(files.loader().getResourceAsStream("com/example/Missing.class")).isNull();
    }
  }

  @Test
  void withoutAKnownLocationReadsThroughTheAgentsLoader() throws IOException {
    write(elsewhere, "io/faultline/agent/A.class", "class path copy");
    try (URLClassLoader agentLoader = new URLClassLoader(new URL[] {url(elsewhere)}, null);
        AgentClassFiles files = AgentClassFiles.of(null, agentLoader)) {

      assertThat(files.loader()).isSameAs(agentLoader);
      assertThat(read(files, "io/faultline/agent/A.class")).isEqualTo("class path copy");
    }
  }

  private static void write(Path root, String name, String content) throws IOException {
    Path file = root.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
  }

  private static URL url(Path dir) throws IOException {
    return dir.toUri().toURL();
  }

  private static String read(AgentClassFiles files, String name) throws IOException {
    try (InputStream in = files.loader().getResourceAsStream(name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
