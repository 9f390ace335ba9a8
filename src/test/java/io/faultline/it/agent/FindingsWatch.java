package io.faultline.it.agent;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads a chaos service's active findings every 500 ms in the background and remembers, for each
 * one that was not active before the fault, when it was first and last seen (milliseconds, wall
 * clock).
 */
final class FindingsWatch implements AutoCloseable {

  private final ChaosService service;
  private final Set<String> baseline;
  private final Map<String, long[]> seen = new LinkedHashMap<>();
  private final Thread thread;
  private volatile boolean running = true;

  FindingsWatch(ChaosService service) throws InterruptedException {
    this.service = service;
    this.baseline = service.activeFindings();
    this.thread = new Thread(this::watch, "findings-watch-" + service.name());
    thread.setDaemon(true);
    thread.start();
  }

  private void watch() {
    while (running) {
      try {
        Set<String> now = service.activeFindings();
        long at = System.currentTimeMillis();
        synchronized (seen) {
          for (String f : now) {
            if (!baseline.contains(f)) {
              seen.computeIfAbsent(f, k -> new long[] {at, at})[1] = at;
            }
          }
        }
        Thread.sleep(500);
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException | AssertionError e) {
        // The endpoint did not answer this time; the next round reads again.
      }
    }
  }

  /** The findings active before the fault. */
  Set<String> baseline() {
    return baseline;
  }

  /** Findings seen that were not in the baseline, with first and last time seen. */
  Map<String, long[]> raised() {
    synchronized (seen) {
      Map<String, long[]> copy = new LinkedHashMap<>();
      seen.forEach((k, v) -> copy.put(k, v.clone()));
      return copy;
    }
  }

  /**
   * Findings about the service's own clients, pool and database (Kafka, jOOQ, PostgreSQL, the pool,
   * its connection churn) active now that were not in the baseline. The host doctor's findings
   * (ephemeral ports, listen queues, SYN cookies, kernel settings) are left out: they describe the
   * whole host, which the other builds on a shared machine move, and are only reported.
   */
  Set<String> serviceFindingsBeyondBaseline() throws InterruptedException {
    Set<String> now = new TreeSet<>(service.activeFindings());
    now.removeAll(baseline);
    now.removeIf(f -> !aboutTheService(f));
    return now;
  }

  /** Whether a finding ({@code ID subject}) is about the service rather than the host. */
  static boolean aboutTheService(String finding) {
    return finding.startsWith("KAFKA_")
        || finding.startsWith("JOOQ_")
        || finding.startsWith("PG_")
        || finding.startsWith("POOL_")
        || finding.startsWith("TX_")
        || finding.startsWith("NET_CONNECTION_CHURN");
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
  }
}
