package io.faultline.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finds descriptors in a hand-made {@code /proc/self}: fd links plus the two tables. */
class SocketFdsTest {

  @TempDir Path procSelf;
  private SocketFds fds;

  @BeforeEach
  void writeProcSelf() throws IOException {
    Path fd = Files.createDirectories(procSelf.resolve("fd"));
    Files.createSymbolicLink(fd.resolve("0"), Paths.get("pipe:[5]"));
    Files.createSymbolicLink(fd.resolve("7"), Paths.get("socket:[1001]"));
    Files.createSymbolicLink(fd.resolve("9"), Paths.get("socket:[1002]"));
    Files.createSymbolicLink(fd.resolve("12"), Paths.get("socket:[2001]"));
    Files.createSymbolicLink(fd.resolve("4"), Paths.get("socket:[2001]")); // a dup
    Files.createDirectories(procSelf.resolve("net"));
    Files.write(
        procSelf.resolve("net/tcp6"),
        java.util.List.of(
            "  sl  local_address                         remote_address                        st",
            // [::ffff:127.0.0.1]:50000 -> [::ffff:127.0.0.1]:9092, inode 1001
            "   0: 0000000000000000FFFF00000100007F:C350 0000000000000000FFFF00000100007F:2384 01"
                + " 00000000:00000000 00:00000000 00000000     0        0 1001 1 0 20 4 30 10 -1",
            // [::ffff:127.0.0.1]:50001 -> [::ffff:127.0.0.1]:9092, inode 1002
            "   1: 0000000000000000FFFF00000100007F:C351 0000000000000000FFFF00000100007F:2384 01"
                + " 00000000:00000000 00:00000000 00000000     0        0 1002 1 0 20 4 30 10 -1",
            // another process's socket to 5432: inode not among our fds
            "   2: 0000000000000000FFFF00000100007F:C352 0000000000000000FFFF00000100007F:1538 01"
                + " 00000000:00000000 00:00000000 00000000     0        0 3003 1 0 20 4 30 10 -1"));
    Files.write(
        procSelf.resolve("net/tcp"),
        java.util.List.of(
            "  sl  local_address rem_address   st",
            // 10.0.0.1:40000 -> 10.0.0.2:5432, inode 2001
            "   0: 0100000A:9C40 0200000A:1538 01 00000000:00000000 00:00000000 00000000     0"
                + "        0 2001 1 0 20 4 30 10 -1"));
    fds = new SocketFds(procSelf, new ProcNetTcp(ByteOrder.LITTLE_ENDIAN));
  }

  @Test
  void findsTheDualStackSocketByItsIpv4Peer() {
    Outcome<Integer> fd = fds.byAddress(new InetSocketAddress("127.0.0.1", 9092), null);
    assertThat(fd.value()).hasValue(7);
  }

  @Test
  void theLocalAddressTellsTwoConnectionsToOnePeerApart() {
    Outcome<Integer> fd =
        fds.byAddress(
            new InetSocketAddress("127.0.0.1", 9092), new InetSocketAddress("127.0.0.1", 50001));
    assertThat(fd.value()).hasValue(9);
  }

  @Test
  void findsIpv4TableRowsAndPrefersTheLowestDuplicateDescriptor() {
    Outcome<Integer> fd = fds.byAddress(new InetSocketAddress("10.0.0.2", 5432), null);
    assertThat(fd.value()).hasValue(4);
  }

  @Test
  void anotherProcessesSocketIsNotOurs() {
    Outcome<Integer> fd = fds.byAddress(new InetSocketAddress("127.0.0.1", 5432), null);
    assertThat(fd.isAvailable()).isFalse();
    assertThat(fd.reason()).hasValueSatisfying(r -> assertThat(r).contains("127.0.0.1:5432"));
  }

  @Test
  void aMissingProcIsAReasonNotAnException() {
    SocketFds nowhere = new SocketFds(procSelf.resolve("does-not-exist"), ProcNetTcp.nativeOrder());
    Outcome<Integer> fd = nowhere.byAddress(new InetSocketAddress("127.0.0.1", 9092), null);
    assertThat(fd.reason()).hasValueSatisfying(r -> assertThat(r).contains("cannot list"));
  }

  @Test
  void reflectionNeedsTheOpenedPackageAndSaysSo() throws IOException {
    // Surefire does not open java.base/sun.nio.ch to the test's module: the clean refusal path.
    try (SocketChannel channel = SocketChannel.open()) {
      Outcome<Integer> fd = SocketFds.ofChannel(channel);
      assertThat(fd.isAvailable()).isFalse();
      assertThat(fd.reason()).hasValueSatisfying(r -> assertThat(r).contains("sun.nio.ch"));
    }
  }
}
