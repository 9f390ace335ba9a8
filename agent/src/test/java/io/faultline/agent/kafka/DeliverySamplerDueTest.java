package io.faultline.agent.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The sampler reads a connection only once its oldest unacknowledged send is due: a probe watched
 * and stopped before then (a response that came in time) is never read. Every read of {@link
 * AckingTcpInfoReader} fails here, which takes the probe out of the sampler's set.
 */
class DeliverySamplerDueTest {

  @Test
  void aProbeStoppedBeforeItIsDueIsNeverRead() throws Exception {
    AckingTcpInfoReader reader = new AckingTcpInfoReader();
    DeliverySampler sampler = new DeliverySampler(reader, 2000, 5_000_000L);
    for (int i = 0; i < 20; i++) {
      DeliverySampler.Probe probe = new DeliverySampler.Probe(100 + i);
      sampler.enlist(probe);
      sampler.watch(probe, System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
      sampler.stop(probe);
    }
    DeliverySampler.Probe last = new DeliverySampler.Probe(7);
    sampler.enlist(last);
    sampler.watch(last, System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
    Thread.sleep(300);
    assertThat(reader.reads).as("reads before anything was due").hasValue(0);
    sampler.stop(last);
  }

  @Test
  void aProbeIsReadOnceItIsDue() throws Exception {
    AckingTcpInfoReader reader = new AckingTcpInfoReader();
    DeliverySampler sampler = new DeliverySampler(reader, 2000, 5_000_000L);
    DeliverySampler.Probe probe = new DeliverySampler.Probe(7);
    sampler.enlist(probe);
    sampler.watch(probe, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50));
    awaitRead(probe);
    assertThat(probe.failed()).as("read (and, with this reader, failed)").isTrue();
    assertThat(reader.reads).hasValue(1);
  }

  @Test
  void anOverdueProbeIsReadAtOnceBesideOneThatIsNotDue() throws Exception {
    AckingTcpInfoReader reader = new AckingTcpInfoReader();
    DeliverySampler sampler = new DeliverySampler(reader, 2000, 5_000_000L);
    DeliverySampler.Probe later = new DeliverySampler.Probe(8);
    sampler.enlist(later);
    sampler.watch(later, System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
    DeliverySampler.Probe overdue = new DeliverySampler.Probe(9);
    sampler.enlist(overdue);
    sampler.watch(overdue, System.nanoTime());
    awaitRead(overdue);
    assertThat(overdue.failed()).as("the overdue probe was read").isTrue();
    assertThat(later.failed()).as("the other is not due for 30 s").isFalse();
    sampler.stop(later);
  }

  /**
   * A healthy producer: a send is outstanding almost all the time, each answered before it is due.
   * The sampler looks in at the quiet pace, not whenever the current send would have become due.
   */
  @Test
  void aConnectionWhoseSendsAreAnsweredInTimeKeepsTheSamplerAtTheQuietPace() throws Exception {
    AckingTcpInfoReader reader = new AckingTcpInfoReader();
    DeliverySampler sampler = new DeliverySampler(reader, 2000, TimeUnit.MILLISECONDS.toNanos(5));
    DeliverySampler.Probe probe = new DeliverySampler.Probe(7);
    sampler.enlist(probe);
    // Due sooner than the quiet pace, later than a stalled test thread is likely to be late.
    long dueIn = TimeUnit.MILLISECONDS.toNanos(25);
    long start = System.nanoTime();
    sampler.watch(probe, start + dueIn);
    long wakesAtStart = sampler.wakes();
    long end = start + TimeUnit.SECONDS.toNanos(1);
    long now;
    while ((now = System.nanoTime()) < end) {
      // A new send every 2 ms, each answered before it is due.
      sampler.watch(probe, now + dueIn);
      Thread.sleep(2);
    }
    long wakes = sampler.wakes() - wakesAtStart;
    sampler.stop(probe);
    assertThat(reader.reads).as("reads of a connection never due").hasValue(0);
    // One look every QUIET_MILLIS: 20 in the second, a few more for a late timer; waking when the
    // current send would become due is one every 25 ms at most the quiet pace: 40 or more.
    assertThat(wakes).as("the sampler's wakes in 1 s").isLessThan(35);
  }

  /**
   * A probe stays in the sampler's set while its connection is open, busy or quiet: no send adds or
   * removes it, so a send after a quiet spell does the same as any other. Quiet, the sampler looks
   * in once a second, and reads a probe that became due meanwhile at the next look.
   */
  @Test
  void aQuietConnectionsProbeStaysInTheSetAndIsReadOnceDue() throws Exception {
    AckingTcpInfoReader reader = new AckingTcpInfoReader();
    DeliverySampler sampler = new DeliverySampler(reader, 2000, 5_000_000L);
    DeliverySampler.Probe probe = new DeliverySampler.Probe(7);
    sampler.enlist(probe);
    for (int i = 0; i < 10; i++) {
      sampler.watch(probe, System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
      sampler.stop(probe);
    }
    Thread.sleep(TimeUnit.NANOSECONDS.toMillis(DeliverySampler.KEEP_LOOKING_NANOS) + 300);
    assertThat(sampler.probesInSet()).as("in the set after a quiet second").isEqualTo(1);
    long wakesBefore = sampler.wakes();
    Thread.sleep(2_000);
    // One look a second: two in these 2 s, three for a late timer; the quiet pace would be 40.
    assertThat(sampler.wakes() - wakesBefore).as("the sampler's wakes in 2 quiet s").isLessThan(4);
    assertThat(sampler.sleepsQuietly()).as("a client's nudge wakes it").isTrue();
    assertThat(reader.reads).as("reads of a probe never due").hasValue(0);
    sampler.watch(probe, System.nanoTime());
    awaitRead(probe);
    assertThat(reader.reads).as("read once due after a quiet spell").hasValue(1);
  }

  /** With no connection left, the sampler parks until one opens. */
  @Test
  void theSamplerParksWithNoProbeAndWakesForANewOne() throws Exception {
    AckingTcpInfoReader reader = new AckingTcpInfoReader();
    DeliverySampler sampler = new DeliverySampler(reader, 2000, 5_000_000L);
    DeliverySampler.Probe first = new DeliverySampler.Probe(7);
    sampler.enlist(first);
    sampler.forget(first);
    Thread.sleep(TimeUnit.NANOSECONDS.toMillis(DeliverySampler.KEEP_LOOKING_NANOS) + 300);
    long wakesBefore = sampler.wakes();
    Thread.sleep(1_500);
    assertThat(sampler.wakes() - wakesBefore).as("wakes with no probe").isZero();
    DeliverySampler.Probe next = new DeliverySampler.Probe(8);
    sampler.enlist(next);
    sampler.watch(next, System.nanoTime());
    awaitRead(next);
    assertThat(reader.reads).as("the new probe read once due").hasValue(1);
  }

  @Test
  void aClosedConnectionsProbeLeavesTheSetAtOnce() {
    DeliverySampler sampler = new DeliverySampler(new AckingTcpInfoReader(), 2000, 5_000_000L);
    DeliverySampler.Probe probe = new DeliverySampler.Probe(7);
    sampler.enlist(probe);
    sampler.watch(probe, System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
    sampler.forget(probe);
    assertThat(sampler.probesInSet()).isZero();
  }

  /**
   * Waits (at most 10 s) until the sampler has read {@code probe}: with this reader it then fails.
   */
  private static void awaitRead(DeliverySampler.Probe probe) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!probe.failed() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
  }
}
