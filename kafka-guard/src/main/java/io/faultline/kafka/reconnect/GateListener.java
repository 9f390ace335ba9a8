package io.faultline.kafka.reconnect;

/** Hears what a {@link ReconnectGate} decided, for metrics. Called on the gate's thread. */
public interface GateListener {

  /** Does nothing. */
  GateListener NONE = new GateListener() {};

  /** The outcomes of a connection initiation, the {@code outcome} tag values. */
  enum Outcome {
    /** Not a reconnect (or the gate is off): allowed at once. */
    IMMEDIATE("immediate"),
    /** The client had no connection at all: allowed at once by the starvation guard. */
    FIRST("first"),
    /** A reconnect allowed after its random delay. */
    AFTER_DELAY("after_delay"),
    /** A reconnect told to wait (counted once per wait). */
    DEFERRED("deferred"),
    /** Told to wait by the process-wide rate limit. */
    THROTTLED("throttled");

    private final String tagValue;

    Outcome(String tagValue) {
      this.tagValue = tagValue;
    }

    /** The tag value. */
    public String tagValue() {
      return tagValue;
    }
  }

  /** A connection initiation to {@code nodeId} was decided. */
  default void attempt(String nodeId, Outcome outcome) {}

  /** A reconnect to {@code nodeId} was allowed after the gate held it back {@code delayNanos}. */
  default void delayed(String nodeId, long delayNanos) {}
}
