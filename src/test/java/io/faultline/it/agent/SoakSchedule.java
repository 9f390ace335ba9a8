package io.faultline.it.agent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the soak does when, for a run of a given length. The one-hour default: 5 minutes of warm-up,
 * then the five chaos faults twice, one every 5 minutes, and 5 quiet minutes at the end for the
 * last findings to clear. All along, every minute: two producers and two consumers created and
 * closed, two new destinations for the connection-churn counter, and every fourth minute the pool's
 * maximum size changed (6, then back to 4). At 5 s, 40 new destinations: past the counter's cap of
 * 32 before the warm-up ends, so the exported series after it show whether the cap holds. Runs
 * shorter than 20 minutes are scaled down: 60 s of warm-up and of quiet end, one round of the
 * faults between, churn every 20 s.
 */
final class SoakSchedule {

  /** The chaos faults, in the order they are applied. */
  static final List<String> FAULTS =
      List.of("broker_kill", "broker_pause", "pg_terminate", "pg_crash", "pool_exhausted");

  /** One thing to do at an offset from the soak's start. */
  record Step(Duration at, String name, boolean fault) {}

  final Duration total;
  final Duration warmUp;
  final Duration quietEnd;
  final List<Step> faults;
  final List<Step> churn;

  private SoakSchedule(
      Duration total, Duration warmUp, Duration quietEnd, List<Step> faults, List<Step> churn) {
    this.total = total;
    this.warmUp = warmUp;
    this.quietEnd = quietEnd;
    this.faults = faults;
    this.churn = churn;
  }

  static SoakSchedule of(Duration total, boolean withFaults) {
    boolean longRun = total.compareTo(Duration.ofMinutes(20)) >= 0;
    Duration warmUp = longRun ? Duration.ofMinutes(5) : Duration.ofSeconds(60);
    Duration quietEnd = longRun ? Duration.ofMinutes(5) : Duration.ofSeconds(60);
    Duration every = longRun ? Duration.ofMinutes(1) : Duration.ofSeconds(20);

    List<Step> churn = new ArrayList<>();
    churn.add(new Step(Duration.ofSeconds(5), "destinations 40", false));
    int round = 0;
    for (Duration at = every; at.compareTo(total) < 0; at = at.plus(every)) {
      round++;
      churn.add(new Step(at, "churn 2", false));
      churn.add(new Step(at, "destinations 2", false));
      if (round % 4 == 0) {
        churn.add(new Step(at, round % 8 == 4 ? "resize 6" : "resize 4", false));
      }
    }

    List<Step> faults = new ArrayList<>();
    if (withFaults) {
      int cycles = (int) Math.max(1, total.toMinutes() / 30);
      int n = cycles * FAULTS.size();
      Duration span = total.minus(warmUp).minus(quietEnd);
      Duration slot = span.dividedBy(n);
      for (int i = 0; i < n; i++) {
        // A little into the slot, so a fault does not begin on the same second as a churn round.
        faults.add(
            new Step(warmUp.plus(slot.multipliedBy(i)).plusSeconds(7), FAULTS.get(i % 5), true));
      }
    }
    return new SoakSchedule(total, warmUp, quietEnd, List.copyOf(faults), List.copyOf(churn));
  }
}
