package io.faultline.agent.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.agent.instrumentation.ModuleWeaving;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/**
 * The JDK-socket module's advice woven into this JDK's own {@code Socket} and {@code
 * SocketChannelImpl}; the channel class is then defined beside the JDK's and linked, so the
 * verifier checks the weave.
 */
class WeaveJdkSocketsTest {

  @Test
  void theSocketClassesOfThisJdkAreWovenAndVerify() throws Exception {
    ModuleWeaving weaving = ModuleWeaving.bootstrap(new ConnectChurnModule());

    byte[] socket = weaving.weave("java/net/Socket", jdkClassFile("java/net/Socket"));
    byte[] channel =
        weaving.weave("sun/nio/ch/SocketChannelImpl", jdkClassFile("sun/nio/ch/SocketChannelImpl"));

    assertThat(weaving.problem()).isNull();
    assertThat(socket).isNotNull();
    assertThat(channel).isNotNull();
    Class<?> woven =
        new ClassLoader(WeaveJdkSocketsTest.class.getClassLoader()) {
          Class<?> defineIt() {
            return defineClass("sun.nio.ch.SocketChannelImpl", channel, 0, channel.length);
          }
        }.defineIt();
    woven.getDeclaredMethods();
    assertThat(woven.getClassLoader()).isNotNull();
  }

  private static byte[] jdkClassFile(String internalName) throws IOException {
    try (InputStream in = ClassLoader.getSystemResourceAsStream(internalName + ".class")) {
      return in.readAllBytes();
    }
  }
}
