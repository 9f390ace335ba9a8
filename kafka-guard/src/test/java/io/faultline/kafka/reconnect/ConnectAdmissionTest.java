package io.faultline.kafka.reconnect;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConnectAdmissionTest {

  private static final long MS = 1_000_000L;

  @Test
  void allowsTheRateWithABurstOfOneSecond() {
    ConnectAdmission bucket = new ConnectAdmission(10);
    int admitted = 0;
    for (int i = 0; i < 50; i++) {
      if (bucket.tryAcquire(0) == 0) {
        admitted++;
      }
    }
    assertThat(admitted).isEqualTo(10);
    assertThat(bucket.tryAcquire(0)).isEqualTo(100 * MS);
    assertThat(bucket.tryAcquire(100 * MS)).isZero();
    // Over 10 s at most 10 per second (+ the initial burst).
    admitted = 0;
    for (long t = 100 * MS; t < 10_100 * MS; t += MS) {
      if (bucket.tryAcquire(t) == 0) {
        admitted++;
      }
    }
    assertThat(admitted).isBetween(99, 101);
  }

  @Test
  void zeroIsUnlimited() {
    ConnectAdmission off = new ConnectAdmission(0);
    for (int i = 0; i < 1_000; i++) {
      assertThat(off.tryAcquire(0)).isZero();
    }
    assertThat(off.isLimited()).isFalse();
    assertThat(new ConnectAdmission(-5).isLimited()).isFalse();
  }
}
