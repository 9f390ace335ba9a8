package io.faultline.agent.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The page builds its registry on the first scrape and keeps what was counted before. */
class DeferredMetricsPageTest {

  @Test
  void theFirstScrapeHasWhatWasCountedBeforeItAndLaterMetersFollow() {
    SimpleMeterRegistry own = new SimpleMeterRegistry();
    Counter.builder("faultline.test.reconnects").register(own).increment(3);
    DeferredMetricsPage page = new DeferredMetricsPage(own, () -> null);

    assertThat(text(page)).contains("faultline_test_reconnects_total 3.0");

    Counter.builder("faultline.test.later").register(own).increment();
    assertThat(text(page))
        .contains("faultline_test_reconnects_total 3.0")
        .contains("faultline_test_later_total 1.0");
  }

  @Test
  void firstScrapesAtOnceWriteEachFamilyOnce() throws Exception {
    SimpleMeterRegistry own = new SimpleMeterRegistry();
    Counter.builder("faultline.test.reconnects").register(own).increment(2);
    DeferredMetricsPage page = new DeferredMetricsPage(own, () -> null);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<String>> scrapes = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        scrapes.add(
            pool.submit(
                () -> {
                  go.await();
                  return text(page);
                }));
      }
      go.countDown();
      for (Future<String> scrape : scrapes) {
        assertThat(scrape.get())
            .containsOnlyOnce("# TYPE faultline_test_reconnects_total counter")
            .contains("faultline_test_reconnects_total 2.0");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static String text(DeferredMetricsPage page) {
    return new String(page.apply(null).body(), StandardCharsets.UTF_8);
  }
}
