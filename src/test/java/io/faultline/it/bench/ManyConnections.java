package io.faultline.it.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Opens {@code n} producers, each connected to the broker (metadata fetched for {@code topic}),
 * prints {@code ready heap-used=<bytes>} and keeps them open until standard input closes, so the
 * harness can take a class histogram. Arguments: bootstrap topic n [metrics-url]; with a URL, the
 * agent's {@code /metrics} is scraped once before the heap is read, as a scraped service's would be
 * (the agent builds its Prometheus registry on the first scrape).
 */
public final class ManyConnections {

  private ManyConnections() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    String bootstrap = args[0];
    String topic = args[1];
    int n = Integer.parseInt(args[2]);
    List<KafkaProducer<byte[], byte[]>> producers = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Properties props = new Properties();
      props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      props.put(ProducerConfig.CLIENT_ID_CONFIG, "many-" + i);
      props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 1 << 20);
      props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
      props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
      KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props);
      producer.partitionsFor(topic);
      producers.add(producer);
    }
    // The agent samples connections and raises findings on its own schedule: let it settle.
    Thread.sleep(3000);
    if (args.length > 3) {
      scrapeOnce(URI.create(args[3]));
    }
    System.out.println("ready heap-used=" + HeapAfterGc.bytes());
    System.out.flush();
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      while (in.readLine() != null) {
        // wait for the harness to close stdin
      }
    }
    producers.forEach(p -> p.close(java.time.Duration.ZERO));
  }

  /** The endpoint opens once the start has settled: until then a scrape is refused. */
  private static void scrapeOnce(URI metrics) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (true) {
      try (InputStream scrape = metrics.toURL().openStream()) {
        scrape.transferTo(OutputStream.nullOutputStream());
        return;
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(200);
      }
    }
  }
}
