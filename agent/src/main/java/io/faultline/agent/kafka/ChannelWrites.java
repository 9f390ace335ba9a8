package io.faultline.agent.kafka;

/**
 * Carries the client whose {@code Selector.write} is running to the {@code KafkaChannel.write()}
 * and {@code SslTransportLayer.flush} advice inside it, which see only the channel: set on entry of
 * {@code Selector.write}, cleared on its exit, on the same thread.
 */
public final class ChannelWrites {

  private static final ThreadLocal<KafkaClient> CURRENT = new ThreadLocal<>();

  private ChannelWrites() {}

  /** {@code Selector.write} of {@code client} starts. */
  public static void begin(KafkaClient client) {
    CURRENT.set(client);
  }

  /** {@code Selector.write} ended. */
  public static void end() {
    // set(null), not remove(): remove() clears the entry's weak reference, a JVM call that was
    // most of this advice's cost, and the entry is needed again at the next write.
    CURRENT.set(null);
  }

  /**
   * {@code SslTransportLayer.flush} handed {@code bytes} bytes of TLS records to the socket of
   * {@code node}.
   */
  public static void recordsWritten(String node, int bytes) {
    if (bytes <= 0) {
      return;
    }
    KafkaClient client = CURRENT.get();
    if (client != null) {
      client.recordBytesWritten(node, bytes);
    }
  }

  /**
   * {@code KafkaChannel.write()} handed {@code bytes} to the socket of {@code node} through {@code
   * transportLayer} (or, over TLS, to the layer's encryption).
   */
  public static void written(String node, long bytes, Object transportLayer) {
    if (bytes <= 0 || !PhasesModule.SWITCH.active()) {
      return;
    }
    KafkaClient client = CURRENT.get();
    if (client != null) {
      client.bytesWritten(node, bytes, System.nanoTime(), transportLayer);
    }
  }
}
