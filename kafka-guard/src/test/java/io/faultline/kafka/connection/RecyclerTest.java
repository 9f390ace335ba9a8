package io.faultline.kafka.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.kafka.connection.Recycler.Decision;
import io.faultline.kafka.connection.Recycler.Policy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecyclerTest {

  private static final long SECOND = 1_000_000_000L;
  private final List<String> closed = new ArrayList<>();
  private final TcpFacts crippled = TcpFacts.of(TcpInfos.seed002().build());
  private final TcpFacts healthy = TcpFacts.of(TcpInfos.healthy().build());

  private Recycler recycler(boolean enabled) {
    return new Recycler(
        new Policy(enabled ? RecycleMode.ON : RecycleMode.WARN, 3, Duration.ofMinutes(5), 0.8),
        (key, reason) -> closed.add(key + ": " + reason));
  }

  @Test
  void recyclesAfterTheRequiredConsecutiveSamples() {
    Recycler r = recycler(true);
    assertThat(r.onSample("c/2", crippled, 0)).isEqualTo(Decision.SUSPECT);
    assertThat(r.onSample("c/2", crippled, 10 * SECOND)).isEqualTo(Decision.SUSPECT);
    assertThat(r.onSample("c/2", crippled, 20 * SECOND)).isEqualTo(Decision.RECYCLED);
    assertThat(closed).singleElement().asString().startsWith("c/2: no window scaling");
  }

  @Test
  void aHealthySampleResetsTheCount() {
    Recycler r = recycler(true);
    r.onSample("c/2", crippled, 0);
    r.onSample("c/2", crippled, 1);
    assertThat(r.onSample("c/2", healthy, 2)).isEqualTo(Decision.HEALTHY);
    assertThat(r.onSample("c/2", crippled, 3)).isEqualTo(Decision.SUSPECT);
    assertThat(closed).isEmpty();
  }

  @Test
  void offByDefaultOnlyWarns() {
    Recycler r = recycler(false);
    for (int i = 0; i < 2; i++) {
      r.onSample("c/2", crippled, i);
    }
    assertThat(r.onSample("c/2", crippled, 3)).isEqualTo(Decision.WOULD_RECYCLE);
    assertThat(closed).isEmpty();
  }

  @Test
  void oneNodeAtATimeAndOncePerInterval() {
    Recycler r = recycler(true);
    for (int i = 0; i < 3; i++) {
      r.onSample("c/1", crippled, i);
    }
    for (int i = 0; i < 2; i++) {
      r.onSample("c/2", crippled, i);
    }
    assertThat(r.onSample("c/2", crippled, 3)).isEqualTo(Decision.RATE_LIMITED);
    r.onReconnected("c/1");
    assertThat(r.onSample("c/2", crippled, 4)).isEqualTo(Decision.RECYCLED);
    r.onReconnected("c/2");
    // c/2 comes back crippled at once: not again within the min interval.
    for (int i = 0; i < 2; i++) {
      r.onSample("c/2", crippled, 5 + i);
    }
    assertThat(r.onSample("c/2", crippled, 60 * SECOND)).isEqualTo(Decision.RATE_LIMITED);
    assertThat(r.onSample("c/2", crippled, 301 * SECOND)).isEqualTo(Decision.RECYCLED);
    assertThat(closed).hasSize(3);
  }

  @Test
  void aRecycleThatNeverReconnectsStopsBlockingAfterATimeout() {
    Recycler r = recycler(true);
    for (int i = 0; i < 3; i++) {
      r.onSample("c/1", crippled, i);
    }
    for (int i = 0; i < 2; i++) {
      r.onSample("c/2", crippled, i);
    }
    assertThat(r.onSample("c/2", crippled, 61 * SECOND)).isEqualTo(Decision.RECYCLED);
  }

  @Test
  void noScalingButIdleIsNotCrippled() {
    TcpFacts idle =
        TcpFacts.of(
            TcpInfos.seed002()
                .with(
                    t -> {
                      t.rwndLimited = 0;
                      t.deliveryRate = 1_000;
                    })
                .build());
    Recycler r = recycler(true);
    assertThat(r.onSample("c/2", idle, 0)).isEqualTo(Decision.HEALTHY);
  }

  @Test
  void aLineRateBurstTheApplicationLimitedIsNotTheCeiling() {
    // A small request sent at once: its delivery rate tops window / RTT, but the sender ran out
    // of data before the window ran out.
    TcpInfos burst =
        TcpInfos.seed002()
            .with(
                t -> {
                  t.rwndLimited = 0;
                  t.deliveryRate = 400_000;
                  t.appLimited = true;
                });
    Recycler r = recycler(true);
    assertThat(r.onSample("c/2", TcpFacts.of(burst.build()), 0)).isEqualTo(Decision.HEALTHY);
    // The same rate with the sender still holding data: the window is the limit.
    assertThat(r.onSample("c/2", TcpFacts.of(burst.with(t -> t.appLimited = false).build()), 1))
        .isNotEqualTo(Decision.HEALTHY);
  }

  @Test
  void aThrowingOrRefusingActionIsFailedNotFatal() {
    Recycler r =
        new Recycler(
            new Policy(RecycleMode.ON, 1, Duration.ZERO, 0.8),
            (key, reason) -> {
              throw new IllegalStateException("no channel");
            });
    assertThat(r.onSample("c/2", crippled, 0)).isEqualTo(Decision.FAILED);
    Recycler refusing =
        new Recycler(new Policy(RecycleMode.ON, 1, Duration.ZERO, 0.8), (k, why) -> false);
    assertThat(refusing.onSample("c/2", crippled, 0)).isEqualTo(Decision.FAILED);
  }
}
