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
  /** A Kafka Connect worker's group membership client. */
  CONNECT,
  /** A broker's replica fetcher: follower fetches from the partition leaders. */
  REPLICA_FETCHER,
  /** A KRaft node's Raft client: votes and metadata-log fetches between controllers. */
  RAFT,
  /**
   * A broker's channel to the active controller (registration, heartbeats, forwarding, partition
   * changes).
   */
  CONTROLLER_CHANNEL,
  /**
   * A broker's transaction coordinator talking to other brokers (transaction markers, partitions
   * added to transactions).
   */
  TRANSACTION_COORDINATOR,
  /** Anything else that drives a {@code NetworkClient} (share consumers, tools...). */
  OTHER;

  private final String tagValue = name().toLowerCase(Locale.ROOT);

  /** The lowercase tag value. */
  public String tagValue() {
    return tagValue;
  }
}
