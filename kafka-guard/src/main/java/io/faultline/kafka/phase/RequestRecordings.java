package io.faultline.kafka.phase;

import io.faultline.core.Jfr;
import io.faultline.kafka.ClientTags;
import io.faultline.kafka.ClientType;

/**
 * A {@link PhaseRecorder} that commits an {@code io.faultline.KafkaRequest} JDK Flight Recorder
 * event for each request at least as slow as a recording's {@code slowerThan} setting, then passes
 * the request on. Until Flight Recorder is started it costs one check and loads no event class.
 */
final class RequestRecordings implements PhaseRecorder {

  private final String clientType;
  private final String clientId;
  private final String node;
  private final PhaseRecorder next;

  private RequestRecordings(
      ClientType clientType, String clientId, String nodeId, PhaseRecorder next) {
    this.clientType = clientType == null ? ClientType.OTHER.tagValue() : clientType.tagValue();
    this.clientId = clientId == null ? "" : clientId;
    this.node = ClientTags.nodeId(nodeId);
    this.next = next;
  }

  /** {@code next}, with the events in front of it where JDK Flight Recorder is in the runtime. */
  static PhaseRecorder around(
      ClientType clientType, String clientId, String nodeId, PhaseRecorder next) {
    return Jfr.available() ? new RequestRecordings(clientType, clientId, nodeId, next) : next;
  }

  @Override
  public void record(
      short apiKey,
      long queueNanos,
      long transmitNanos,
      long deliveryNanos,
      long responseNanos,
      long receiveNanos) {
    if (responseNanos >= 0 && Jfr.recording()) {
      commit(apiKey, queueNanos, transmitNanos, deliveryNanos, responseNanos, receiveNanos);
    }
    next.record(apiKey, queueNanos, transmitNanos, deliveryNanos, responseNanos, receiveNanos);
  }

  private void commit(
      short apiKey,
      long queueNanos,
      long transmitNanos,
      long deliveryNanos,
      long responseNanos,
      long receiveNanos) {
    KafkaRequestRecording e = new KafkaRequestRecording();
    if (e.isEnabled()) {
      e.latency =
          queueNanos + transmitNanos + Math.max(deliveryNanos, 0) + responseNanos + receiveNanos;
      if (e.shouldCommit()) {
        e.clientType = clientType;
        e.clientId = clientId;
        e.node = node;
        e.api = ApiNames.of(apiKey);
        e.queue = queueNanos;
        e.transmit = transmitNanos;
        e.delivery = deliveryNanos;
        e.response = responseNanos;
        e.receive = receiveNanos;
        e.commit();
      }
    }
  }
}
