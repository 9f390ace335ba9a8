package io.faultline.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class TcpInfoTest {

  /** A tcp_info as a 6.2+ kernel fills it: 1 = ESTABLISHED, all options, wscale 7 and 9. */
  private static ByteBuffer fullStruct() {
    ByteBuffer b = ByteBuffer.allocate(TcpInfo.BUFFER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    b.put(0, (byte) 1);
    b.put(5, (byte) (TcpInfo.OPT_TIMESTAMPS | TcpInfo.OPT_SACK | TcpInfo.OPT_WSCALE));
    b.put(2, (byte) 4);
    b.put(6, (byte) (7 | (9 << 4)));
    b.put(7, (byte) 1);
    b.putInt(8, 3_200_000);
    b.putInt(16, 1448);
    b.putInt(24, 12);
    b.putInt(56, 9_876);
    b.putInt(68, 200_000);
    b.putInt(72, 5_000);
    b.putInt(80, 10);
    b.putInt(100, 3);
    b.putLong(120, 123_456L);
    b.putLong(128, 654_321L);
    b.putInt(144, 77);
    b.putInt(148, 190_000);
    b.putLong(160, 28_000_000L);
    b.putLong(168, 1_000L);
    b.putLong(176, 2_000L);
    b.putLong(184, 3_000L);
    b.putLong(200, 130_000L);
    b.putInt(228, 65_535);
    b.putInt(232, 131_072);
    return b;
  }

  @Test
  void parsesEveryFieldOfAFullStruct() {
    TcpInfo info = TcpInfo.parse(fullStruct(), 248).value().orElseThrow();

    assertThat(info.state()).isEqualTo(TcpState.ESTABLISHED);
    assertThat(info.windowScalingNegotiated()).isTrue();
    assertThat(info.timestampsNegotiated()).isTrue();
    assertThat(info.sackNegotiated()).isTrue();
    assertThat(info.sndWscale()).isEqualTo(7);
    assertThat(info.rcvWscale()).isEqualTo(9);
    assertThat(info.sndMss()).isEqualTo(1448);
    assertThat(info.rttMicros()).isEqualTo(200_000);
    assertThat(info.rttVarMicros()).isEqualTo(5_000);
    assertThat(info.sndCwnd()).isEqualTo(10);
    assertThat(info.totalRetrans()).isEqualTo(3);
    assertThat(info.bytesAcked()).hasValue(123_456L);
    assertThat(info.bytesReceived()).hasValue(654_321L);
    assertThat(info.notsentBytes()).hasValue(77);
    assertThat(info.minRttMicros()).hasValue(190_000);
    assertThat(info.deliveryRate()).hasValue(28_000_000L);
    assertThat(info.busyTimeMicros()).hasValue(1_000L);
    assertThat(info.rwndLimitedMicros()).hasValue(2_000L);
    assertThat(info.sndbufLimitedMicros()).hasValue(3_000L);
    assertThat(info.bytesSent()).hasValue(130_000L);
    assertThat(info.sndWnd()).hasValue(65_535);
    assertThat(info.rcvWnd()).hasValue(131_072);
    assertThat(info.retransmits()).isEqualTo(4);
    assertThat(info.rtoMicros()).isEqualTo(3_200_000);
    assertThat(info.unacked()).isEqualTo(12);
    assertThat(info.lastAckRecvMillis()).isEqualTo(9_876);
    assertThat(info.deliveryRateAppLimited()).isTrue();
  }

  @Test
  void throughputCeilingIsPeerWindowOverRtt() {
    // The Tencent CKafka incident: a 64 KiB window over a 200 ms ocean crossing caps at ~320 KiB/s.
    TcpInfo info = TcpInfo.parse(fullStruct(), 248).value().orElseThrow();
    assertThat(info.throughputCeilingBytesPerSecond()).hasValue(65_535 / 0.2);
  }

  @Test
  void fieldsBeyondTheReturnedLengthAreAbsentNotZero() {
    // A 5.4 kernel stops after tcpi_snd_wnd (offset 228 + 4): rcv_wnd is absent.
    TcpInfo v54 = TcpInfo.parse(fullStruct(), 232).value().orElseThrow();
    assertThat(v54.sndWnd()).hasValue(65_535);
    assertThat(v54.rcvWnd()).isEmpty();

    // A 4.9 kernel ends after delivery_rate (offset 160 + 8).
    TcpInfo v49 = TcpInfo.parse(fullStruct(), 168).value().orElseThrow();
    assertThat(v49.deliveryRate()).hasValue(28_000_000L);
    assertThat(v49.busyTimeMicros()).isEmpty();
    assertThat(v49.bytesSent()).isEmpty();
    assertThat(v49.sndWnd()).isEmpty();
    assertThat(v49.throughputCeilingBytesPerSecond()).isEmpty();

    // The 2.6 struct: only the fixed part.
    TcpInfo v26 = TcpInfo.parse(fullStruct(), TcpInfo.MIN_LENGTH).value().orElseThrow();
    assertThat(v26.rttMicros()).isEqualTo(200_000);
    assertThat(v26.totalRetrans()).isEqualTo(3);
    assertThat(v26.bytesAcked()).isEmpty();
  }

  @Test
  void aFieldCutInHalfByTheLengthIsAbsent() {
    TcpInfo info = TcpInfo.parse(fullStruct(), 124).value().orElseThrow();
    assertThat(info.bytesAcked()).isEmpty();
  }

  @Test
  void tooShortIsUnavailableWithTheReason() {
    Outcome<TcpInfo> outcome = TcpInfo.parse(fullStruct(), 40);
    assertThat(outcome.isAvailable()).isFalse();
    assertThat(outcome.reason()).hasValueSatisfying(r -> assertThat(r).contains("40 bytes"));
  }

  @Test
  void withoutWindowScalingTheScalesAreZeroAndTheFlagIsOff() {
    ByteBuffer b = fullStruct();
    b.put(5, (byte) TcpInfo.OPT_SACK);
    b.put(6, (byte) 0);
    TcpInfo info = TcpInfo.parse(b, 248).value().orElseThrow();
    assertThat(info.windowScalingNegotiated()).isFalse();
    assertThat(info.timestampsNegotiated()).isFalse();
    assertThat(info.sndWscale()).isZero();
    assertThat(info.rcvWscale()).isZero();
  }

  @Test
  void unsignedFieldsAboveTwoToTheThirtyOneStayPositive() {
    ByteBuffer b = fullStruct();
    b.putInt(228, 0xF000_0000);
    TcpInfo info = TcpInfo.parse(b, 248).value().orElseThrow();
    assertThat(info.sndWnd()).hasValue(0xF000_0000L);
  }

  @Test
  void theBufferItselfIsNotDisturbed() {
    ByteBuffer b = fullStruct().order(ByteOrder.BIG_ENDIAN);
    b.position(17);
    TcpInfo.parse(b, 248);
    assertThat(b.position()).isEqualTo(17);
    assertThat(b.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
  }
}
