package io.faultline.kafka;

/**
 * Bounds the tag values that come from user configuration: a {@code client.id} is user text of any
 * length and alphabet, and a tag value must come from a small set.
 */
public final class ClientTags {

  /** Longest {@code client.id} tag value kept; longer ids are cut. */
  public static final int MAX_CLIENT_ID_LENGTH = 64;

  /** Node ids this close below {@code Integer.MAX_VALUE} are coordinator connections. */
  private static final int COORDINATOR_ID_RANGE = 1 << 20;

  private ClientTags() {}

  /**
   * {@code clientId} as a tag value: characters outside {@code [A-Za-z0-9._-]} become {@code _}, at
   * most {@link #MAX_CLIENT_ID_LENGTH} characters, {@code none} when empty or null.
   */
  public static String clientId(String clientId) {
    if (clientId == null || clientId.isEmpty()) {
      return "none";
    }
    int length = Math.min(clientId.length(), MAX_CLIENT_ID_LENGTH);
    StringBuilder b = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      char c = clientId.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '_'
              || c == '-';
      b.append(ok ? c : '_');
    }
    return b.toString();
  }

  /**
   * A node id as a tag value: Kafka node ids are small integers; bootstrap placeholders are
   * negative ({@code -1}, {@code -2}...) and are all reported as {@code bootstrap}; a group
   * coordinator's connection ({@code Integer.MAX_VALUE} minus the broker's id) as {@code
   * coordinator-<broker id>}.
   */
  public static String nodeId(String nodeId) {
    if (nodeId == null || nodeId.isEmpty()) {
      return "none";
    }
    if (nodeId.charAt(0) == '-') {
      return "bootstrap";
    }
    for (int i = 0; i < nodeId.length(); i++) {
      char c = nodeId.charAt(i);
      if (c < '0' || c > '9') {
        return "other";
      }
    }
    if (nodeId.length() > 10) {
      return "other";
    }
    long id = Long.parseLong(nodeId);
    // A group coordinator's connection: kafka-clients gives it node id Integer.MAX_VALUE - the
    // broker's id, so it does not share the broker's other connection.
    if (id > Integer.MAX_VALUE - COORDINATOR_ID_RANGE && id <= Integer.MAX_VALUE) {
      return "coordinator-" + (Integer.MAX_VALUE - id);
    }
    return nodeId;
  }
}
