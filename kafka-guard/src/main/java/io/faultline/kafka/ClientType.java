package io.faultline.kafka;

import java.util.Locale;

/** The kind of Kafka client, the {@code client.type} tag value. */
public enum ClientType {
  /** A {@code KafkaProducer}. */
  PRODUCER,
  /** A {@code KafkaConsumer} (classic or the 4.x async consumer). */
  CONSUMER,
  /** An {@code Admin} client. */
  ADMIN,
  /** Anything else that drives a {@code NetworkClient} (Connect workers, share consumers...). */
  OTHER;

  private final String tagValue = name().toLowerCase(Locale.ROOT);

  /** The lowercase tag value. */
  public String tagValue() {
    return tagValue;
  }
}
