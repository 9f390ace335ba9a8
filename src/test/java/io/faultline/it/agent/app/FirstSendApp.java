package io.faultline.it.agent.app;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A plain application with no Faultline code: {@code n} producers, each on its own thread, created
 * at once with {@code request.timeout.ms} and {@code delivery.timeout.ms} set to {@code timeoutMs};
 * each sends one record and prints {@code first-ack-ms=M}, the milliseconds from its construction
 * to the acknowledgement (or {@code first-ack-failed=...}).
 *
 * <p>Arguments: bootstrap servers, topic, n, timeoutMs.
 */
public final class FirstSendApp {

  private FirstSendApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    // What the test measures starts with the first call: not before the agent has woven it.
    AgentReady.await();
    String bootstrap = args[0];
    String topic = args[1];
    int n = Integer.parseInt(args[2]);
    int timeoutMs = Integer.parseInt(args[3]);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String clientId = "first-send-" + i;
      Thread t =
          new Thread(
              () -> {
                Properties p = new Properties();
                p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
                p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
                p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
                p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, timeoutMs);
                p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
                p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
                p.put(
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
                long start = System.nanoTime();
                try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
                  producer.send(new ProducerRecord<>(topic, clientId)).get(60, TimeUnit.SECONDS);
                  System.out.println(
                      "first-ack-ms=" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                } catch (Exception e) {
                  System.out.println("first-ack-failed=" + e);
                }
              });
      t.start();
      threads.add(t);
    }
    for (Thread t : threads) {
      t.join();
    }
    System.out.println("bye");
  }
}
