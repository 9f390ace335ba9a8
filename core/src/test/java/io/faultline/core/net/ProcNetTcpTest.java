package io.faultline.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProcNetTcpTest {

  private final ProcNetTcp parser = new ProcNetTcp(ByteOrder.LITTLE_ENDIAN);

  @Test
  void parsesIpv4RowsInHostByteOrder() {
    List<ProcNetTcp.Entry> rows =
        parser.parse(
            List.of(
                "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid"
                    + "  timeout inode",
                "   0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0"
                    + "        0 637 1 00000000b9a35494 100 0 0 10 0",
                "   1: 0100000A:DD42 0200000A:2553 01 00000000:00000000 00:00000000 00000000     0"
                    + "        0 98765 1 0000000000000000 20 4 30 10 -1"));

    assertThat(rows).hasSize(2);
    assertThat(rows.get(0).state()).isEqualTo(TcpState.LISTEN);
    assertThat(rows.get(0).local()).isEqualTo(new InetSocketAddress("0.0.0.0", 2024));
    ProcNetTcp.Entry conn = rows.get(1);
    assertThat(conn.state()).isEqualTo(TcpState.ESTABLISHED);
    assertThat(conn.local()).isEqualTo(new InetSocketAddress("10.0.0.1", 0xDD42));
    assertThat(conn.remote()).isEqualTo(new InetSocketAddress("10.0.0.2", 9555));
    assertThat(conn.inode()).isEqualTo(98765);
  }

  @Test
  void ipv4MappedIpv6PeersCompareEqualToIpv4Addresses() {
    ProcNetTcp.Entry row =
        parser
            .parseLine(
                "   3: 0000000000000000FFFF00000100007F:C350 0000000000000000FFFF00000100007F:1F90"
                    + " 01 00000000:00000000 00:00000000 00000000     0        0 4242 1"
                    + " 0000000000000000 20 4 30 10 -1")
            .orElseThrow();
    assertThat(row.remote()).isEqualTo(new InetSocketAddress("127.0.0.1", 8080));
    assertThat(row.local()).isEqualTo(new InetSocketAddress("127.0.0.1", 50000));
  }

  @Test
  void parsesRealIpv6Addresses() {
    // 2001:db8::1 is the words 20010db8 00000000 00000000 00000001, each printed little-endian.
    ProcNetTcp.Entry row =
        parser
            .parseLine(
                "   0: B80D0120000000000000000001000000:0050 00000000000000000000000001000000:D431"
                    + " 06 00000000:00000000 03:00000F2C 00000000     0        0 0 3"
                    + " 0000000000000000")
            .orElseThrow();
    assertThat(row.local()).isEqualTo(new InetSocketAddress("2001:db8::1", 80));
    assertThat(row.remote()).isEqualTo(new InetSocketAddress("::1", 0xD431));
    assertThat(row.state()).isEqualTo(TcpState.TIME_WAIT);
  }

  @Test
  void bigEndianKernelsPrintNetworkOrder() {
    ProcNetTcp be = new ProcNetTcp(ByteOrder.BIG_ENDIAN);
    ProcNetTcp.Entry row =
        be.parseLine("   0: 7F000001:1F90 7F000001:C350 01 0:0 0:0 0 0 0 17 1").orElseThrow();
    assertThat(row.local()).isEqualTo(new InetSocketAddress("127.0.0.1", 8080));
  }

  @Test
  void malformedRowsAreSkipped() {
    assertThat(parser.parseLine("garbage")).isEmpty();
    assertThat(parser.parseLine("   0: 0100:07E8 00000000:0000 0A 0 0 0 0 0 1 1")).isEmpty();
    assertThat(parser.parseLine("   0: ZZ00007F:07E8 00000000:0000 0A 0 0 0 0 0 1 1")).isEmpty();
  }

  @Test
  void aRowsStateIsReadWithoutParsingTheRow() {
    assertThat(
            ProcNetTcp.stateOf(
                "   0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000"))
        .isEqualTo(TcpState.LISTEN);
    assertThat(ProcNetTcp.stateOf("   1: 0100000A:DD42 0200000A:2553 01 0:0 0:0 0 0 0 98765 1"))
        .isEqualTo(TcpState.ESTABLISHED);
    assertThat(ProcNetTcp.stateOf("   2: 0100000A:DD42 0200000A:2553 0c 0:0 0:0 0 0 0 1 1"))
        .isEqualTo(TcpState.NEW_SYN_RECV);
    assertThat(ProcNetTcp.stateOf("  sl  local_address rem_address   st tx_queue rx_queue"))
        .isEqualTo(TcpState.UNKNOWN);
    assertThat(ProcNetTcp.stateOf("   3: 0100000A:DD42 0200000A:2553 10A 0:0"))
        .isEqualTo(TcpState.UNKNOWN);
    assertThat(ProcNetTcp.stateOf("   4: 0100000A:DD42 0200000A:2553")).isEqualTo(TcpState.UNKNOWN);
    assertThat(ProcNetTcp.stateOf("")).isEqualTo(TcpState.UNKNOWN);
  }
}
