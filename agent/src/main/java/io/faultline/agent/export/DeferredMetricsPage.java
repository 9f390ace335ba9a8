package io.faultline.agent.export;

import io.faultline.kafka.phase.PhaseMeters;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The agent's {@code /metrics} page, whose Prometheus registry and writers are built on the first
 * scrape rather than at start: a service nobody scrapes never loads them, and one that is scraped
 * pays for them once, on the endpoint's thread, not on the application's. Counts made before are
 * kept: the registry mirrors the agent's cumulative registry ({@link PrometheusMirror}).
 *
 * <p>This class names no Prometheus type, so loading it loads none.
 */
public final class DeferredMetricsPage implements Function<String, ScrapeEndpoint.Page> {

  private final MeterRegistry source;
  private final Supplier<PhaseMeters> phases;
  private volatile Function<String, ScrapeEndpoint.Page> built;

  /**
   * @param source the agent's own registry, cumulative
   * @param phases the phase timers, or {@code null} while there are none
   */
  public DeferredMetricsPage(MeterRegistry source, Supplier<PhaseMeters> phases) {
    this.source = Objects.requireNonNull(source, "source");
    this.phases = Objects.requireNonNull(phases, "phases");
  }

  @Override
  public ScrapeEndpoint.Page apply(String accept) {
    return page().apply(accept);
  }

  private Function<String, ScrapeEndpoint.Page> page() {
    Function<String, ScrapeEndpoint.Page> page = built;
    if (page == null) {
      // Only the endpoint's threads get here; two first scrapes must not mirror twice.
      synchronized (this) {
        page = built;
        if (page == null) {
          PrometheusMirror mirror = PrometheusMirror.of(source);
          PrometheusScrape scrape = new PrometheusScrape(mirror.registry(), phases);
          page =
              accept -> {
                mirror.catchUp();
                return scrape.scrape(accept);
              };
          built = page;
        }
      }
    }
    return page;
  }
}
