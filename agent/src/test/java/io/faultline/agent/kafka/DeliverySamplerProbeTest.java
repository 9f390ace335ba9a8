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
  void keepsEveryChangeUpToItsCapacityInOrderAndRepeatsOnce() {
    var probe = new DeliverySampler.Probe(3);
    for (int i = 1; i <= 40; i++) {
      probe.record(i * 100L, i);
      probe.record(i * 100L, i + 1_000); // no change: not recorded
    }
    List<long[]> drained = drain(probe);
    assertThat(drained).hasSize(40);
    for (int i = 0; i < 40; i++) {
      assertThat(drained.get(i)).containsExactly((i + 1) * 100L, i + 1);
    }
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
  void saysWhetherAChangeWaitsToBeDrained() {
    var probe = new DeliverySampler.Probe(3);
    assertThat(probe.hasChanges()).isFalse();
    probe.record(100, 1);
    assertThat(probe.hasChanges()).isTrue();
    drain(probe);
    assertThat(probe.hasChanges()).isFalse();
    probe.record(100, 2); // the same bytes acknowledged: no change
    assertThat(probe.hasChanges()).isFalse();
    probe.record(200, 3);
    assertThat(probe.hasChanges()).isTrue();
  }
}
