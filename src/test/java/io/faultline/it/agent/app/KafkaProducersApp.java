package io.faultline.it.agent.app;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A plain application with no Faultline code: {@code n} idempotent producers (acks=all) each send a
 * record to every partition of {@code topic} every 100 ms until the standard input gets a line.
 * Creates the {@code ready} file once every producer had a record acknowledged; prints {@code
 * acked=A failed=F} at the end.
 *
 * <p>Arguments: bootstrap servers, topic, partitions, n, ready file.
 */
public final class KafkaProducersApp {

  private KafkaProducersApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    // What the test measures starts with the first call: not before the agent has woven it.
    AgentReady.await();
    String bootstrap = args[0];
    String topic = args[1];
    int partitions = Integer.parseInt(args[2]);
    int n = Integer.parseInt(args[3]);
    Path ready = Path.of(args[4]);
    List<KafkaProducer<String, String>> producers = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      p.put(ProducerConfig.CLIENT_ID_CONFIG, "storm-" + i);
      p.put(ProducerConfig.ACKS_CONFIG, "all");
      p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
      p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
      p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
      producers.add(new KafkaProducer<>(p));
    }
    AtomicLong acked = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    Thread sender =
        new Thread(
            () -> {
              long round = 0;
              while (!Thread.currentThread().isInterrupted()) {
                for (KafkaProducer<String, String> producer : producers) {
                  for (int part = 0; part < partitions; part++) {
                    producer.send(
                        new ProducerRecord<>(topic, part, null, "r" + round),
                        (md, e) -> (e == null ? acked : failed).incrementAndGet());
                  }
                }
                round++;
                try {
                  Thread.sleep(100);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "sender");
    sender.setDaemon(true);
    sender.start();
    while (acked.get() < (long) n * partitions) {
      Thread.sleep(50);
    }
    ReadyFile.write(ready, "ready");
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    sender.interrupt();
    sender.join();
    for (KafkaProducer<String, String> producer : producers) {
      producer.close();
    }
    System.out.println("acked=" + acked.get() + " failed=" + failed.get());
    System.out.println("bye");
  }
}
