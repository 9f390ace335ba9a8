package io.faultline.agent.kafka;

/**
 * What a client's transport layer puts on the wire, which decides how its connections' delivery is
 * sampled: a count of the requests' own bytes, of TLS records, or not at all.
 */
enum WireFormat {
  /** Not known yet: the client has not written. */
  UNKNOWN,
  /** The requests' bytes as they are: PLAINTEXT and SASL_PLAINTEXT. */
  REQUEST_BYTES,
  /** TLS records, counted as {@code SslTransportLayer.flush} writes them: SSL and SASL_SSL. */
  TLS_RECORDS,
  /** A transport layer of another kind: delivery merged. */
  OTHER;

  private static final String PLAINTEXT = "org.apache.kafka.common.network.PlaintextTransportLayer";
  private static final String TLS = "org.apache.kafka.common.network.SslTransportLayer";

  /** The format of {@code transportLayer} (a {@code KafkaChannel}'s); exact classes only. */
  static WireFormat of(Object transportLayer) {
    if (transportLayer == null) {
      return OTHER;
    }
    String type = transportLayer.getClass().getName();
    return type.equals(PLAINTEXT) ? REQUEST_BYTES : type.equals(TLS) ? TLS_RECORDS : OTHER;
  }
}
