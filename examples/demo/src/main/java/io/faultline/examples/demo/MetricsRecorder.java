package io.faultline.examples.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code --record-metrics DIR}: a scrape of the service agent's {@code /metrics} every second, each
 * saved as {@code DIR/<epoch-millis>.prom} (the Prometheus text exactly as served), for rendering
 * dashboards from a real run.
 */
final class MetricsRecorder implements AutoCloseable {

  private final AgentEndpoint endpoint;
  private final Path directory;
  private final AtomicInteger saved = new AtomicInteger();
  private final Thread thread;
  private volatile boolean running = true;

  MetricsRecorder(AgentEndpoint endpoint, Path directory) throws IOException {
    this.endpoint = endpoint;
    this.directory = Files.createDirectories(directory);
    this.thread = new Thread(this::loop, "demo-metrics-recorder");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    long next = System.currentTimeMillis();
    while (running) {
      long now = System.currentTimeMillis();
      Optional<String> scrape = endpoint.metricsText();
      if (scrape.isPresent()) {
        try {
          Files.writeString(directory.resolve(now + ".prom"), scrape.get());
          saved.incrementAndGet();
        } catch (IOException e) {
          System.err.println("demo: could not save a scrape to " + directory + ": " + e);
          return;
        }
      }
      next += 1000;
      long wait = next - System.currentTimeMillis();
      if (wait > 0) {
        try {
          Thread.sleep(wait);
        } catch (InterruptedException e) {
          return;
        }
      } else {
        next = System.currentTimeMillis();
      }
    }
  }

  int saved() {
    return saved.get();
  }

  Path directory() {
    return directory;
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.interrupt();
    thread.join(5000);
  }
}
