package io.faultline.it.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.faultline.it.agent.StormSampler.Sample;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lab's arithmetic on made-up samples: peaks of accepted connections and of handshakes. */
class StormSeriesTest {

  private static final long MS = 1_000_000L;

  /** Samples every 10 ms; {@code opens[i]} and {@code drops[i]} are the counts in sample i. */
  private static StormSeries series(long[] opens, long[] drops) {
    List<Sample> samples = new ArrayList<>();
    long passive = 1_000;
    long dropped = 50;
    for (int i = 0; i < opens.length; i++) {
      passive += opens[i];
      dropped += drops[i];
      samples.add(new Sample(i * 10 * MS, passive, 0, dropped, dropped, 0));
    }
    return new StormSeries(samples, 0, 10, "test");
  }

  @Test
  void thePeakIsTheBusiestSpanNotTheTotal() {
    // 3 + 4 + 5 in samples 1-3, then 1 in sample 20 (170 ms after sample 3)
    long[] opens = new long[21];
    opens[1] = 3;
    opens[2] = 4;
    opens[3] = 5;
    opens[20] = 1;
    StormSeries s = series(opens, new long[21]);

    assertEquals(12, s.peakWithin(100));
    assertEquals(5, s.peakWithin(10));
    assertEquals(13, s.totalNewConnections());
  }

  @Test
  void handshakesCountWhatAFullQueueDroppedAsWellAsWhatItAccepted() {
    long[] opens = {0, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    long[] drops = {0, 9, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    StormSeries s = series(opens, drops);

    assertEquals(6, s.peakWithin(100));
    assertEquals(24, s.peakHandshakesWithin(100));
    assertEquals(11, s.peakHandshakesWithin(10));
  }
}
