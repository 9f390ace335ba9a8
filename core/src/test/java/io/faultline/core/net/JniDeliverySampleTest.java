package io.faultline.core.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The delivery sample through Faultline's JNI library ({@code src/main/native/faultline_net.c}),
 * built by this module's build where the host has a C compiler, on real loopback connections.
 */
class JniDeliverySampleTest {

  private static final boolean LINUX =
      System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux");

  private static Optional<String> directoryHere() {
    return JniSocketCalls.directory(System.getProperty("os.name"), System.getProperty("os.arch"));
  }

  private static boolean builtHere() {
    return directoryHere()
        .map(d -> JniSocketCalls.class.getResource(d + JniSocketCalls.LIBRARY) != null)
        .orElse(false);
  }

  private static boolean onPath(String command) {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(File.pathSeparator)) {
      if (new File(dir, command).canExecute()) {
        return true;
      }
    }
    return false;
  }

  @Test
  void theBuildPutsTheLibraryBesideTheClassWhereTheHostHasACompiler() {
    assumeTrue(
        LINUX && directoryHere().isPresent(), "a library is built for Linux x86-64, AArch64");
    assumeTrue(onPath("cc"), "no C compiler on this host");
    assertThat(builtHere())
        .as("%s%s beside JniSocketCalls", directoryHere().orElseThrow(), JniSocketCalls.LIBRARY)
        .isTrue();
  }

  @Test
  void beforeJdk24TheDeliverySampleIsReadThroughJni() throws Exception {
    assumeTrue(LINUX && builtHere(), "the library is built for this host");
    assumeTrue(Runtime.version().feature() < 24, "JNI is used before JDK 24");
    assertThat(JniSocketCalls.unavailableReason()).isEmpty();
    TcpInfoReader jna = JnaOnlyReader.load();
    TcpInfoReader jni = JniDeliverySample.over(jna).value().orElseThrow();

    UnacknowledgedBytesCheck.check(jni);

    try (ServerSocketChannel server = ServerSocketChannel.open()) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      InetSocketAddress serverAddress = (InetSocketAddress) server.getLocalAddress();
      try (SocketChannel client = SocketChannel.open(serverAddress);
          SocketChannel accepted = server.accept()) {
        client.write(ByteBuffer.wrap(new byte[777]));
        accepted.read(ByteBuffer.allocate(1024));
        Thread.sleep(50); // the ACK of the 777 bytes arrives
        int fd =
            SocketFds.forThisProcess()
                .byAddress(serverAddress, (InetSocketAddress) client.getLocalAddress())
                .value()
                .orElseThrow(() -> new AssertionError("fd not found by address"));
        assertThat(jni.bytesAcked(fd)).as("SYN and 777 bytes").isEqualTo(778);
        assertThat(jni.bytesAcked(fd)).as("what JNA reads").isEqualTo(jna.bytesAcked(fd));
        assertThat(jni.unacknowledgedBytes(fd)).isZero();
      }
    }
    assertThat(jni.bytesAcked(-1)).as("no descriptor").isEqualTo(-1);
    assertThat(jni.unacknowledgedBytes(-1)).as("no descriptor").isEqualTo(-1);
    assertThat(jni.unacknowledgedBytes(Integer.MAX_VALUE)).as("a closed descriptor").isEqualTo(-1);
    assertThat(jni.bytesAcked(Integer.MAX_VALUE)).as("a closed descriptor").isEqualTo(-1);
  }

  @Test
  void thePlatformReaderTakesTheJniRouteWhereJnaWouldServe() {
    assumeTrue(LINUX && builtHere(), "the library is built for this host");
    assumeTrue(Runtime.version().feature() < 22, "JDK 22+ may take the FFM route instead");
    assertThat(TcpInfoReader.create()).isInstanceOf(JniDeliverySample.class);
  }

  @Test
  void fromJdk24OnTheLibraryIsNotLoadedAndSaysWhy() {
    assumeTrue(Runtime.version().feature() >= 24, "JDK 24 or later");
    Outcome<TcpInfoReader> over = JniDeliverySample.over(new UnsupportedTcpInfoReader("none"));
    assertThat(over.isAvailable()).isFalse();
    assertThat(over.reason()).hasValueSatisfying(r -> assertThat(r).contains("JDK 24"));
  }

  @Test
  void everyOtherReadIsTheOtherReaders() {
    assumeTrue(JniSocketCalls.unavailableReason().isEmpty(), "the library binds here");
    TcpInfoReader rest = new UnsupportedTcpInfoReader("the other reader's reason");
    TcpInfoReader jni = JniDeliverySample.over(rest).value().orElseThrow();
    assertThat(jni.isSupported()).isFalse();
    assertThat(jni.read(3).reason()).hasValue("the other reader's reason");
    assertThat(jni.unsupportedReason()).hasValue("the other reader's reason");
    assertThat(jni.dump().isSupported()).isFalse();
    assertThat(jni.readsUnacknowledgedBytes()).isTrue();
  }

  @Test
  void aLibraryIsLookedForOnlyWhereOneIsBuilt() {
    assertThat(JniSocketCalls.directory("Linux", "amd64")).hasValue("native/linux-x86-64/");
    assertThat(JniSocketCalls.directory("Linux", "x86_64")).hasValue("native/linux-x86-64/");
    assertThat(JniSocketCalls.directory("Linux", "aarch64")).hasValue("native/linux-aarch64/");
    assertThat(JniSocketCalls.directory("Linux", "ppc64le")).isEmpty();
    assertThat(JniSocketCalls.directory("Mac OS X", "aarch64")).isEmpty();
  }
}
