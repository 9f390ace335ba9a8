package io.faultline.agent.kafka;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.util.List;

/**
 * What the request-phase advice calls: one static call per advice, the work all here. Advice code
 * is copied into the woven method, and the JIT inlines a hot method into its caller only up to a
 * size: with the work in the advice, {@code Selector.write}, {@code addToCompletedReceives} and
 * {@code NetworkClient.doSend} had grown past it and were called, not inlined, on the busiest
 * producer's I/O thread, which cost that thread more than the work itself (docs/benchmarks.md).
 * Parameters are JDK types: the advice, in the library's class loader, reads kafka-clients'
 * objects; this class, in the agent's, never sees them.
 */
public final class PhaseEvents {

  private PhaseEvents() {}

  /**
   * {@code NetworkClient.doSend} starts: the time, or 0 while the phases are off (the exit then
   * does nothing).
   */
  public static long requestStarting() {
    return PhasesModule.SWITCH.active() ? System.nanoTime() : 0L;
  }

  /** {@code NetworkClient.doSend} handed a request created at {@code start} to the selector. */
  public static void requestCreated(
      Object networkClient,
      Object selector,
      Object connectionStates,
      String clientId,
      String node,
      int correlation,
      short apiKey,
      boolean expectResponse,
      long start) {
    if (!PhasesModule.SWITCH.active()) {
      return;
    }
    KafkaClient c = KafkaClients.register(networkClient, selector, connectionStates, clientId);
    if (c != null) {
      c.requestCreated(node, correlation, apiKey, expectResponse, start);
    }
  }

  /**
   * {@code Selector.poll} starts: its client, or null when not followed; the advice hands it to
   * {@link #pollTimeout} and, at the exit, to {@link #pollEnded}, so a poll looks it up once.
   */
  public static Object pollStarting(Object selector) {
    return PhasesModule.SWITCH.active() ? KafkaClients.forSelector(selector) : null;
  }

  /**
   * The timeout {@code Selector.poll(timeout)} of {@code client} uses, cut so that the poll ends
   * when the client's first waiting send becomes due (see {@link KafkaClient#pollTimeout}).
   */
  public static long pollTimeout(Object client, long timeout) {
    return client == null || timeout <= 0 ? timeout : ((KafkaClient) client).pollTimeout(timeout);
  }

  /**
   * {@code Selector.poll} of {@code client} returned or threw (see {@link KafkaClient#afterPoll}).
   */
  public static void pollEnded(Object client) {
    if (client != null && PhasesModule.SWITCH.active()) {
      ((KafkaClient) client).afterPoll();
    }
  }

  /**
   * {@code Selector.write} starts: the number of completed sends so far, or -1 when its client is
   * not followed; the writes inside it are the client's ({@link ChannelWrites}).
   */
  public static int writeStarting(Object selector, List<?> completedSends) {
    if (!PhasesModule.SWITCH.active()) {
      return -1;
    }
    KafkaClient c = KafkaClients.forSelector(selector);
    if (c == null) {
      return -1;
    }
    ChannelWrites.begin(c);
    return completedSends.size();
  }

  /**
   * {@code Selector.write}, which {@link #writeStarting} found {@code sendsBefore} sends before,
   * returned or threw: the send it completed (the advice reports it with {@link #sendCompleted}),
   * or null.
   */
  public static Object writeEnded(int sendsBefore, List<?> completedSends) {
    ChannelWrites.end();
    int now = completedSends.size();
    return now > sendsBefore && PhasesModule.SWITCH.active() ? completedSends.get(now - 1) : null;
  }

  /**
   * {@code Selector.write} completed a send of {@code size} bytes to {@code node}, on the socket of
   * {@code key} (adopted when its opening came before the agent's weave).
   */
  public static void sendCompleted(Object selector, String node, long size, SelectionKey key) {
    KafkaClient c = KafkaClients.forSelector(selector);
    if (c != null) {
      c.sendCompleted(node, size, System.nanoTime());
      c.sawChannel(node, key.channel());
    }
  }

  /** {@code Selector.attemptRead}: response bytes wait on {@code node}'s socket. */
  public static void responseStarted(Object selector, String node) {
    if (!PhasesModule.SWITCH.active()) {
      return;
    }
    KafkaClient c = KafkaClients.forSelector(selector);
    if (c != null) {
      c.responseStarted(node, System.nanoTime());
    }
  }

  /**
   * {@code Selector.addToCompletedReceives}: a response from {@code node} is complete; its
   * correlation id is the first int of {@code payload} (the response header).
   */
  public static void responseCompleted(Object selector, String node, ByteBuffer payload) {
    if (!PhasesModule.SWITCH.active()) {
      return;
    }
    KafkaClient c = KafkaClients.forSelector(selector);
    if (c != null) {
      int correlation = payload != null && payload.limit() >= 4 ? payload.getInt(0) : -1;
      c.responseCompleted(node, correlation, System.nanoTime());
    }
  }
}
