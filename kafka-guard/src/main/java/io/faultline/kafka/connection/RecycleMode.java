package io.faultline.kafka.connection;

/** What Faultline does about a broker connection confirmed crippled ({@code kafka.recycle}). */
public enum RecycleMode {
  /** No recycle decisions at all; the connection's TCP findings are still raised. */
  OFF,
  /** Decide and report ({@code would_recycle}), close nothing: the findings are the warning. */
  WARN,
  /** Close the connection through the client's own disconnect path so it reconnects. */
  ON
}
