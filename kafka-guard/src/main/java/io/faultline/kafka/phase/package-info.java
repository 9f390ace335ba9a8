/**
 * Internal: request-phase tracking, fed by the agent's advice on kafka-clients internals ({@code
 * NetworkClient}, {@code Selector}). Not API: it is public only so the agent can call it, and may
 * change without notice. What it measures is documented in {@code docs/kafka.md} and its meters in
 * {@code docs/metrics.md}; those names are the stable part.
 */
package io.faultline.kafka.phase;
