package example.startup;

import org.apache.kafka.clients.producer.Callback;

/**
 * Shape (b): a {@code static final} field of kafka-clients' {@code Callback} type in the main
 * class, so kafka-clients loads while the main class initializes; then produces with it, and runs
 * the nested transaction. Arguments: see {@link ShapeWork}.
 */
public final class KafkaCallbackFieldApp {

  static final Callback CB = (m, e) -> {};

  private KafkaCallbackFieldApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    ShapeWork.produce(args[0], args[1], CB);
    ShapeWork.nestedTransaction(args[2], args[3], args[4], args[5]);
    System.out.println("done kafka-callback-field");
    System.out.flush();
    ShapeWork.waitForStop();
  }
}
