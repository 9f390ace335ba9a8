package io.faultline.kafka.phase;

/** The phases of one Kafka request, in order; each is a {@code phase} tag value. */
public enum Phase {
  /** Request created ({@code NetworkClient.doSend}) → first byte handed to the socket. */
  QUEUE("queue"),
  /** First → last byte handed to the socket: a send that cannot finish in one write. */
  TRANSMIT("transmit"),
  /** Last byte handed to the kernel → acknowledged by the broker's TCP (from TCP_INFO). */
  DELIVERY("delivery"),
  /** The broker has the request → first byte of the response. */
  RESPONSE("response"),
  /**
   * Last byte handed to the kernel → first byte of the response, where the kernel could not tell
   * when the broker's TCP had the request: delivery and response merged, and said so.
   */
  RESPONSE_INCL_DELIVERY("response_incl_delivery"),
  /** First → last byte of the response. */
  RECEIVE("receive");

  private final String tagValue;

  Phase(String tagValue) {
    this.tagValue = tagValue;
  }

  /** The {@code phase} tag value. */
  public String tagValue() {
    return tagValue;
  }
}
