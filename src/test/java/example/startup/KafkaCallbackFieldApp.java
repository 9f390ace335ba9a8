package example.startup;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Shape (b): a {@code static final} field of kafka-clients' {@code Callback} type in the main
 * class, and the producer written out in {@code main}, as a small producer program has it: the JVM
 * verifies {@code main} (which loads kafka-clients' types) while the launcher looks the method up,
 * before any line runs. Then the nested transaction. Arguments: see {@link ShapeWork}.
 */
public final class KafkaCallbackFieldApp {

  static final Callback CB = (m, e) -> {};

  private KafkaCallbackFieldApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    p.put("bootstrap.servers", args[0]);
    p.put("acks", "all");
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      List<Future<RecordMetadata>> sent = new ArrayList<>();
      for (int i = 0; i < ShapeWork.RECORDS; i++) {
        sent.add(producer.send(new ProducerRecord<>(args[1], "record " + i), CB));
      }
      for (Future<RecordMetadata> f : sent) {
        f.get(60, TimeUnit.SECONDS);
      }
    }
    System.out.println("produced " + ShapeWork.RECORDS);
    ShapeWork.nestedTransaction(args[2], args[3], args[4], args[5]);
    System.out.println("done kafka-callback-field");
    System.out.flush();
    ShapeWork.repeatOnRequest(args);
  }
}
