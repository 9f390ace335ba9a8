package io.faultline.agent.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeliverySamplerProbeTest {

  private static List<long[]> drain(DeliverySampler.Probe probe) {
    List<long[]> out = new ArrayList<>();
    probe.drain((acked, nanos) -> out.add(new long[] {acked, nanos}));
    return out;
  }

  @Test
  void keepsEveryChangeUpToItsCapacityInOrderThenTheLatestLookWithoutOne() {
    var probe = new DeliverySampler.Probe(3);
    for (int i = 1; i <= 40; i++) {
      probe.record(i * 100L, i);
      probe.record(i * 100L, i + 1_000); // no change: kept only until the next change
      probe.record(i * 100L, i + 2_000);
    }
    List<long[]> drained = drain(probe);
    assertThat(drained).hasSize(41);
    for (int i = 0; i < 40; i++) {
      assertThat(drained.get(i)).containsExactly((i + 1) * 100L, i + 1);
    }
    assertThat(drained.get(40)).containsExactly(4000, 2040);
    assertThat(drain(probe)).isEmpty();
  }

  @Test
  void aLookWithoutAChangeIsDrainedOnceAsTheLatestBound() {
    var probe = new DeliverySampler.Probe(3);
    probe.record(100, 1);
    drain(probe);
    probe.record(100, 5);
    probe.record(100, 9);
    assertThat(drain(probe)).containsExactly(new long[] {100, 9});
    assertThat(drain(probe)).isEmpty();
  }

  @Test
  void beyondItsCapacityKeepsTheNewest() {
    var probe = new DeliverySampler.Probe(3);
    for (int i = 1; i <= 100; i++) {
      probe.record(i, i);
    }
    List<long[]> drained = drain(probe);
    assertThat(drained).hasSize(64);
    assertThat(drained.get(0)).containsExactly(37, 37);
    assertThat(drained.get(63)).containsExactly(100, 100);
  }

  @Test
  void saysWhetherALookWaitsToBeDrained() {
    var probe = new DeliverySampler.Probe(3);
    assertThat(probe.hasLooks()).isFalse();
    probe.record(100, 1);
    assertThat(probe.hasLooks()).isTrue();
    drain(probe);
    assertThat(probe.hasLooks()).isFalse();
    probe.record(100, 2); // the same bytes acknowledged: a later bound, drained too
    assertThat(probe.hasLooks()).isTrue();
    drain(probe);
    assertThat(probe.hasLooks()).isFalse();
  }
}
