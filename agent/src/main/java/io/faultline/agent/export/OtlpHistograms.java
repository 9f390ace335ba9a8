package io.faultline.agent.export;

/** How the Kafka phase and gap timers' histograms are exported over OTLP. */
public enum OtlpHistograms {
  /** Explicit buckets at the bounds of {@code kafka.phases.buckets}, as {@code /metrics} has. */
  EXPLICIT,
  /** Base-2 exponential buckets at scale 3 (eight per power of two), bounds free. */
  EXPONENTIAL
}
