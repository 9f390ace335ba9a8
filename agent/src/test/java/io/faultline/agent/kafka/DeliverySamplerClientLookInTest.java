package io.faultline.agent.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A client whose thread looks in itself ({@link DeliverySampler.Probe#takeFirstLook}, {@link
 * DeliverySampler#nudge}) lets the sampler sleep while its sends are answered in time, and gets the
 * first look at a due send when it asks for it.
 */
class DeliverySamplerClientLookInTest {

  private static final long DELIVERY_AFTER = TimeUnit.MILLISECONDS.toNanos(5);

  @Test
  void whileEverySendIsAnsweredInTimeTheSamplerBarelyWakes() throws Exception {
    DeliverySampler sampler = new DeliverySampler(new AckingTcpInfoReader(), 2000, DELIVERY_AFTER);
    DeliverySampler.Probe probe = new DeliverySampler.Probe(7);
    sampler.enlist(probe);
    assertThat(probe.takeFirstLook(System.nanoTime())).as("nothing due yet").isFalse();
    long dueIn = TimeUnit.MILLISECONDS.toNanos(25);
    long start = System.nanoTime();
    sampler.watch(probe, start + dueIn, 100, 100);
    long wakesAtStart = sampler.wakes();
    long end = start + TimeUnit.MILLISECONDS.toNanos(1500);
    long now;
    while ((now = System.nanoTime()) < end) {
      sampler.watch(probe, now + dueIn, 100, 100);
      Thread.sleep(2);
    }
    long wakes = sampler.wakes() - wakesAtStart;
    sampler.stop(probe);
    // A look a second (two in 1.5 s, one more for a late timer); at the pace without a client
    // that looks in, 30 or more.
    assertThat(wakes).as("the sampler's wakes in 1.5 s").isLessThan(5);
  }

  @Test
  void aNudgeForADueSendInFlightIsLookedAtAtOnceAndFollowed() throws Exception {
    AckingTcpInfoReader reader = new AckingTcpInfoReader();
    reader.acked = 50; // the due send ends at 100: still on its way
    DeliverySampler sampler = new DeliverySampler(reader, 2000, DELIVERY_AFTER);
    DeliverySampler.Probe probe = new DeliverySampler.Probe(7);
    sampler.enlist(probe);
    probe.takeFirstLook(System.nanoTime());
    long due = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(30);
    sampler.watch(probe, due, 100, 100);
    awaitQuietSleep(sampler);
    while (System.nanoTime() < due) {
      Thread.sleep(1);
    }
    assertThat(reader.reads).as("not read before it is due").hasValue(0);

    assertThat(probe.takeFirstLook(System.nanoTime())).isTrue();
    assertThat(probe.takeFirstLook(System.nanoTime())).as("asked once per due send").isFalse();
    assertThat(probe.firstLookDue()).isEqualTo(Long.MAX_VALUE);
    sampler.nudge();
    Thread.sleep(200);

    // The quiet pace is a second: reads within 200 ms came from the nudge, and more than one
    // from following the unacknowledged bytes.
    assertThat(reader.reads.get()).as("reads in the 200 ms after the nudge").isGreaterThan(3);
    sampler.stop(probe);
  }

  @Test
  void aDueSendWhoseBytesAreAcknowledgedIsReadOnceAndNotFollowed() throws Exception {
    AckingTcpInfoReader reader = new AckingTcpInfoReader();
    reader.acked = 100; // everything sent is acknowledged: the send waits for the broker
    DeliverySampler sampler = new DeliverySampler(reader, 2000, DELIVERY_AFTER);
    DeliverySampler.Probe probe = new DeliverySampler.Probe(7);
    sampler.enlist(probe);
    probe.takeFirstLook(System.nanoTime());
    sampler.watch(probe, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(30), 100, 100);
    awaitQuietSleep(sampler);
    Thread.sleep(40);
    assertThat(probe.takeFirstLook(System.nanoTime())).isTrue();
    sampler.nudge();
    Thread.sleep(300);

    assertThat(reader.reads).as("one look, no following").hasValue(1);
    assertThat(probe.hasLooks()).as("the acknowledgement recorded for the client").isTrue();
    sampler.stop(probe);
  }

  @Test
  void aNudgeForANewDueSendIsNeededOncePerSend() {
    DeliverySampler sampler = new DeliverySampler(new AckingTcpInfoReader(), 2000, DELIVERY_AFTER);
    DeliverySampler.Probe probe = new DeliverySampler.Probe(7);
    sampler.enlist(probe);
    long now = System.nanoTime();
    sampler.watch(probe, now - 1, 100, 100);
    assertThat(probe.firstLookDue()).isEqualTo(now - 1);
    assertThat(probe.takeFirstLook(now)).isTrue();
    assertThat(probe.firstLookDue()).as("asked for").isEqualTo(Long.MAX_VALUE);
    sampler.watch(probe, now + 10, 200, 200);
    assertThat(probe.firstLookDue()).as("the next send").isEqualTo(now + 10);
    assertThat(probe.takeFirstLook(now)).as("not due yet").isFalse();
    assertThat(probe.takeFirstLook(now + 10)).isTrue();
    sampler.stop(probe);
    assertThat(probe.firstLookDue()).as("nothing waits").isEqualTo(Long.MAX_VALUE);
    sampler.forget(probe);
  }

  private static void awaitQuietSleep(DeliverySampler sampler) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!sampler.sleepsQuietly() && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    assertThat(sampler.sleepsQuietly()).as("the sampler sleeps at its quiet pace").isTrue();
  }
}
