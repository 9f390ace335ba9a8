package bench.boot;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Kafka through Boot's auto-configuration: a {@link KafkaTemplate} whose producer is built at start
 * (Boot's producer factory otherwise builds it on the first send; the library rows build theirs at
 * start), and a listener whose consumer the listener container builds and polls with.
 */
@Component
class OrderEvents {

  OrderEvents(KafkaTemplate<String, String> template) {
    template.execute(producer -> producer.metrics().size());
  }

  @KafkaListener(topics = "orders", groupId = "bench-boot")
  void onOrder(String event) {
    // Nothing: the benchmark measures the listener's start, no record reaches it.
  }
}
