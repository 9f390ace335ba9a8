package io.faultline.kafka;

import io.faultline.core.config.FaultlineConfig;
import io.micrometer.core.instrument.Tags;

/**
 * Which tags the per-broker Kafka meters carry. By default a series is per client type and node
 * ({@code client.type}, {@code node.id}): an application with 1,000 producers then has the series
 * of one producer, not 1,000 times as many, and the agent's heap does not grow with the number of
 * clients. With {@code kafka.meters.client-id=true} the {@code client.id} is a tag as well, for a
 * service with a few clients whose ids matter on a dashboard; the status page shows every client
 * either way.
 *
 * @param clientId whether to add the {@code client.id} tag
 */
public record KafkaMeterTags(boolean clientId) {

  /** Per client type and node: the default. */
  public static final KafkaMeterTags DEFAULT = new KafkaMeterTags(false);

  /** Per client as well. */
  public static final KafkaMeterTags PER_CLIENT = new KafkaMeterTags(true);

  /** The tagging {@code kafka.meters.client-id} asks for. */
  public static KafkaMeterTags from(FaultlineConfig config) {
    return config.get(KafkaConfigKeys.METERS_CLIENT_ID) ? PER_CLIENT : DEFAULT;
  }

  /**
   * The tags that say whose a series is: {@code client.type}, then {@code client.id} when asked
   * for, then {@code node.id}; values bounded by {@link ClientTags}.
   */
  public Tags of(ClientType clientType, String clientIdValue, String nodeId) {
    String type = clientType == null ? ClientType.OTHER.tagValue() : clientType.tagValue();
    Tags tags = Tags.of("client.type", type);
    if (clientId) {
      tags = tags.and("client.id", ClientTags.clientId(clientIdValue));
    }
    return tags.and("node.id", ClientTags.nodeId(nodeId));
  }
}
