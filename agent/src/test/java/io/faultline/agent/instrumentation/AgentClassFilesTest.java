package io.faultline.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
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
  void readsTheAgentsJarFirstThenTheAgentsLoader() throws IOException {
    Path jar = agentCode.resolve("agent.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new JarEntry("io/faultline/agent/A.class"));
      out.write("agent's copy".getBytes(StandardCharsets.UTF_8));
    }
    write(elsewhere, "io/faultline/agent/A.class", "class path copy");
    write(elsewhere, "com/example/ExtensionAdvice.class", "extension");
    try (URLClassLoader agentLoader = new URLClassLoader(new URL[] {url(elsewhere)}, null);
        AgentClassFiles files = AgentClassFiles.of(jar.toUri().toURL(), agentLoader)) {

      assertThat(read(files, "io/faultline/agent/A.class")).isEqualTo("agent's copy");
      assertThat(read(files, "com/example/ExtensionAdvice.class")).isEqualTo("extension");
      assertThat(files.loader().getResource("io/faultline/agent/A.class"))
          .hasToString("jar:" + jar.toUri().toURL() + "!/io/faultline/agent/A.class");
      assertThat(files.loader().getResourceAsStream("com/example/Missing.class")).isNull();
    }
  }

  @Test
  void aNameOutsideTheAgentsDirectoryIsNotReadFromIt() throws IOException {
    write(elsewhere, "secret.txt", "outside");
    Path code = agentCode.resolve("classes");
    Files.createDirectories(code);
    try (URLClassLoader agentLoader = new URLClassLoader(new URL[0], null);
        AgentClassFiles files = AgentClassFiles.of(url(code), agentLoader)) {

      String escape = "../../" + elsewhere.getFileName() + "/secret.txt";
      assertThat(files.loader().getResourceAsStream(escape)).isNull();
      assertThat(files.loader().getResource(escape)).isNull();
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

  @Test
  void closingLeavesTheJarOpenForItsOtherReaders() throws IOException {
    byte[] big = new byte[1 << 20];
    new Random(1).nextBytes(big);
    Path jar = agentCode.resolve("agent.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new JarEntry("io/faultline/agent/A.class"));
      out.write("agent's copy".getBytes(StandardCharsets.UTF_8));
      out.putNextEntry(new JarEntry("io/faultline/shaded/jna/jna.jar"));
      out.write(big);
    }
    URL jarUrl = jar.toUri().toURL();
    // Another thread reading the agent jar through a jar: URL, as the agent's own class loader
    // serves its resources: through the JVM's shared copy of the jar file.
    try (InputStream other =
        new URL("jar:" + jarUrl + "!/io/faultline/shaded/jna/jna.jar").openStream()) {
      byte[] start = other.readNBytes(1024);
      AgentClassFiles files = AgentClassFiles.of(jarUrl, ClassLoader.getSystemClassLoader());
      assertThat(read(files, "io/faultline/agent/A.class")).isEqualTo("agent's copy");

      files.close();

      byte[] rest = other.readAllBytes();
      assertThat(start.length + rest.length).isEqualTo(big.length);
      assertThat(rest[rest.length - 1]).isEqualTo(big[big.length - 1]);
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
