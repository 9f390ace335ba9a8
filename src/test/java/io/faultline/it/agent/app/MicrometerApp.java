package io.faultline.it.agent.app;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.TreeSet;

/**
 * An application with its own (unshaded) Micrometer: adds a registry to {@code
 * Metrics.globalRegistry}, waits up to 15 s for Faultline's meters to appear in it, and prints
 * {@code meter <name> <description>} for each.
 */
public final class MicrometerApp {

  private MicrometerApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws InterruptedException {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Metrics.addRegistry(registry);
    TreeSet<String> names = new TreeSet<>();
    for (int i = 0; i < 300; i++) {
      names.clear();
      for (Meter meter : registry.getMeters()) {
        if (meter.getId().getName().startsWith("faultline.")) {
          names.add(meter.getId().getName() + " " + meter.getId().getDescription());
        }
      }
      if (names.stream().anyMatch(n -> n.startsWith("faultline.findings.active "))) {
        break;
      }
      Thread.sleep(50);
    }
    names.forEach(n -> System.out.println("meter " + n));
    System.out.println("meters " + names.size());
  }
}
