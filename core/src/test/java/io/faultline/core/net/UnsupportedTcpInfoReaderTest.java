package io.faultline.core.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import org.junit.jupiter.api.Test;

class UnsupportedTcpInfoReaderTest {

  @Test
  void everyReadIsUnavailableWithTheReasonGiven() {
    TcpInfoReader reader = TcpInfoReader.unsupported("JNA could not load libc: no native part");

    assertThat(reader.isSupported()).isFalse();
    assertThat(reader.unsupportedReason()).contains("JNA could not load libc: no native part");
    Outcome<TcpInfo> read = reader.read(3);
    assertThat(read.isAvailable()).isFalse();
    assertThat(read.reason()).contains("JNA could not load libc: no native part");
    assertThat(reader.dump().isSupported()).isFalse();
    assertThat(reader.dump().listening().reason())
        .contains("JNA could not load libc: no native part");
  }

  @Test
  void aReasonIsRequired() {
    assertThatNullPointerException()
        .isThrownBy(() -> TcpInfoReader.unsupported(null))
        .withMessage("reason");
  }
}
