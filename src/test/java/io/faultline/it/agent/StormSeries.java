package io.faultline.it.agent;

import io.faultline.it.agent.StormSampler.Sample;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.ToLongFunction;

/**
 * What the samples of one phase say, measured from the preferred leader election: new connections
 * the broker accepted ({@code PassiveOpens} deltas), the largest number in any 100 ms, when the
 * clients' connections to the broker were all back, and what the kernel's SYN cookie and listen
 * overflow counters did.
 *
 * @param samples the phase's samples, in order
 * @param electedAtNanos when the election was done (the admin client's answer)
 * @param clients how many clients must reconnect
 * @param sampler what sampled, e.g. {@code python3 process, SCHED_FIFO}
 */
record StormSeries(List<Sample> samples, long electedAtNanos, int clients, String sampler) {

  StormSeries {
    samples = List.copyOf(samples);
    if (samples.size() < 2) {
      throw new IllegalArgumentException("a phase needs at least two samples");
    }
  }

  /** Milliseconds from the election to sample {@code i}. */
  double offsetMs(int i) {
    return (samples.get(i).atNanos() - electedAtNanos) / 1e6;
  }

  /** New connections the broker accepted between sample {@code i - 1} and {@code i}. */
  long newConnections(int i) {
    return i == 0 ? 0 : samples.get(i).passiveOpens() - samples.get(i - 1).passiveOpens();
  }

  /**
   * The most new connections accepted within any {@code windowMs} span of the observation, which
   * starts before the election is requested: on a loaded machine some clients learn of the new
   * leader before the admin client hears that the election is done.
   */
  long peakWithin(long windowMs) {
    return peakWithin(windowMs, Sample::passiveOpens);
  }

  /**
   * The most handshakes that reached the broker's listener within any {@code windowMs} span:
   * accepted ({@code PassiveOpens}) plus dropped because its queue was full ({@code ListenDrops},
   * retransmitted SYNs counted again). Accepted connections alone understate a storm: the broker
   * accepts no faster than it drains its queue, and what it could not take comes back on the
   * clients' SYN retransmission timers, seconds later.
   */
  long peakHandshakesWithin(long windowMs) {
    return peakWithin(windowMs, s -> s.passiveOpens() + s.listenDrops());
  }

  private long peakWithin(long windowMs, ToLongFunction<Sample> counter) {
    long span = windowMs * 1_000_000L;
    long peak = 0;
    int j = 0;
    for (int i = 0; i < samples.size(); i++) {
      // counted in (sample i-1, sample j]: starts at the reading before i
      int from = Math.max(0, i - 1);
      j = Math.max(j, i);
      while (j + 1 < samples.size()
          && samples.get(j + 1).atNanos() - samples.get(from).atNanos() <= span) {
        j++;
      }
      peak =
          Math.max(
              peak, counter.applyAsLong(samples.get(j)) - counter.applyAsLong(samples.get(from)));
    }
    return peak;
  }

  /** New connections accepted from the election to the last sample. */
  long totalNewConnections() {
    return last().passiveOpens() - atElection().passiveOpens();
  }

  /**
   * Milliseconds from the election until the clients' established connections to the broker first
   * numbered at least {@link #clients()}; empty when they never did.
   */
  OptionalLong allReconnectedMs() {
    for (int i = 0; i < samples.size(); i++) {
      Sample s = samples.get(i);
      if (s.atNanos() >= electedAtNanos && s.established() >= clients) {
        return OptionalLong.of(Math.round(offsetMs(i)));
      }
    }
    return OptionalLong.empty();
  }

  /** The largest gap between two consecutive samples, in milliseconds. */
  double largestGapMs() {
    long gap = 0;
    for (int i = 1; i < samples.size(); i++) {
      gap = Math.max(gap, samples.get(i).atNanos() - samples.get(i - 1).atNanos());
    }
    return gap / 1e6;
  }

  /**
   * Milliseconds from the election to the first new connection the broker accepted after it: when
   * the first client learned that it needs the broker again. On a loaded machine that is seconds
   * after the controller finished; the gate's window counts from each client's own want.
   */
  OptionalLong firstReconnectMs() {
    for (int i = 1; i < samples.size(); i++) {
      if (samples.get(i).atNanos() >= electedAtNanos && newConnections(i) > 0) {
        return OptionalLong.of(Math.round(offsetMs(i)));
      }
    }
    return OptionalLong.empty();
  }

  /** Milliseconds from the first reconnect until every client was reconnected; empty if never. */
  OptionalLong allReconnectedAfterFirstMs() {
    OptionalLong first = firstReconnectMs();
    OptionalLong all = allReconnectedMs();
    return first.isPresent() && all.isPresent()
        ? OptionalLong.of(all.getAsLong() - first.getAsLong())
        : OptionalLong.empty();
  }

  /** Established client connections to the broker at the last sample. */
  int establishedAtEnd() {
    return last().established();
  }

  long syncookiesSent() {
    return last().syncookiesSent() - atElection().syncookiesSent();
  }

  long listenOverflows() {
    return last().listenOverflows() - atElection().listenOverflows();
  }

  long listenDrops() {
    return last().listenDrops() - atElection().listenDrops();
  }

  /** The last sample taken before the election (the first sample if none was). */
  Sample atElection() {
    Sample before = samples.get(0);
    for (Sample s : samples) {
      if (s.atNanos() > electedAtNanos) {
        break;
      }
      before = s;
    }
    return before;
  }

  private Sample last() {
    return samples.get(samples.size() - 1);
  }
}
