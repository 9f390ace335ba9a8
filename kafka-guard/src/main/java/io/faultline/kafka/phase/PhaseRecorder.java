package io.faultline.kafka.phase;

/**
 * Receives the phases of each finished request of one connection. Primitive arguments only, so a
 * finished request costs no allocation. Called on the thread that drives the connection.
 */
@FunctionalInterface
public interface PhaseRecorder {

  /** A recorder that drops everything (phases off). */
  PhaseRecorder NONE = (api, queue, transmit, delivery, response, receive) -> {};

  /**
   * One finished request.
   *
   * @param apiKey the request's {@code ApiKeys} id
   * @param queueNanos created → first byte handed to the socket
   * @param transmitNanos first → last byte handed to the socket
   * @param deliveryNanos last byte handed to the kernel → acknowledged by the broker's TCP; {@code
   *     -1} when the kernel could not tell, and then {@code responseNanos} includes it
   * @param responseNanos broker has the request → first response byte (from the last byte handed to
   *     the kernel when {@code deliveryNanos} is {@code -1}); {@code -1} when no response is
   *     expected ({@code acks=0})
   * @param receiveNanos first → last byte of the response; {@code -1} when no response is expected
   */
  void record(
      short apiKey,
      long queueNanos,
      long transmitNanos,
      long deliveryNanos,
      long responseNanos,
      long receiveNanos);
}
