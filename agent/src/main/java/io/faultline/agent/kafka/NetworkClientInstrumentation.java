package io.faultline.agent.kafka;

import static io.faultline.agent.instrumentation.MethodMatcher.named;
import static io.faultline.agent.instrumentation.MethodMatcher.takesArgument;
import static io.faultline.agent.instrumentation.MethodMatcher.takesArguments;
import static io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding.nestedIn;

import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding;
import io.faultline.agent.weave.Advice;
import org.apache.kafka.clients.ClientRequest;
import org.apache.kafka.clients.NetworkClient;
import org.apache.kafka.common.Node;

/**
 * Everything the agent weaves into kafka-clients' {@code NetworkClient}, one advice per method:
 *
 * <ul>
 *   <li>{@code initiateConnect(Node, long)} ({@link ClientLifecycleModule}): registers the client
 *       before its first socket opens, and asks its reconnect gate ({@code kafka.stagger});
 *   <li>{@code close()} ({@link ClientLifecycleModule}): forgets the client;
 *   <li>{@code doSend(ClientRequest, boolean, long, AbstractRequest)} ({@link PhasesModule}): a
 *       request is created;
 *   <li>{@code poll(long, long)} ({@link ConnectionsModule}): recycles connections on the client's
 *       own thread.
 * </ul>
 */
public final class NetworkClientInstrumentation {

  static final String TYPE = "org.apache.kafka.clients.NetworkClient";

  private NetworkClientInstrumentation() {}

  static TypeInstrumentation lifecycle() {
    return TypeInstrumentation.forType(
        TYPE,
        AdviceBinding.of(
            named("initiateConnect")
                .and(takesArguments(2))
                .and(takesArgument(0, "org.apache.kafka.common.Node")),
            nestedIn(NetworkClientInstrumentation.class, "InitiateConnectAdvice")),
        AdviceBinding.of(
            named("close").and(takesArguments(0)),
            nestedIn(NetworkClientInstrumentation.class, "CloseAdvice")));
  }

  static TypeInstrumentation phases() {
    return TypeInstrumentation.forType(
        TYPE,
        AdviceBinding.of(
            named("doSend")
                .and(takesArguments(4))
                .and(takesArgument(0, "org.apache.kafka.clients.ClientRequest")),
            nestedIn(NetworkClientInstrumentation.class, "DoSendAdvice")));
  }

  static TypeInstrumentation connections() {
    return TypeInstrumentation.forType(
        TYPE,
        AdviceBinding.of(
            named("poll").and(takesArguments(2)),
            nestedIn(NetworkClientInstrumentation.class, "PollAdvice")));
  }

  /**
   * {@code initiateConnect(Node, long)}: registers the client for every Kafka feature that is on;
   * when the reconnect gate says wait, the method is skipped and {@link
   * ConnectionStatesInstrumentation} reports the wait to Kafka.
   */
  public static final class InitiateConnectAdvice {
    private InitiateConnectAdvice() {}

    /** On entry: {@code true} skips the connection initiation. */
    @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Advice.OnNonDefaultValue.class)
    public static boolean enter(
        @Advice.This Object client,
        @Advice.FieldValue("selector") Object selector,
        @Advice.FieldValue("connectionStates") Object states,
        @Advice.FieldValue("clientId") String clientId,
        @Advice.Argument(0) Node node) {
      if (!ClientLifecycleModule.SWITCH.active()) {
        return false;
      }
      boolean stagger = StaggerModule.SWITCH.active();
      if (!stagger && !PhasesModule.SWITCH.active() && !ConnectionsModule.SWITCH.active()) {
        return false;
      }
      KafkaClient c = KafkaClients.register(client, selector, states, clientId);
      return stagger && c != null && !c.admitConnect(node.idString(), System.nanoTime());
    }
  }

  /** {@code close()}: forgets the client, its meters and its connections. */
  public static final class CloseAdvice {
    private CloseAdvice() {}

    /** On exit, however it ended. */
    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.FieldValue("selector") Object selector) {
      if (!ClientLifecycleModule.SWITCH.active()) {
        return;
      }
      KafkaClient c = KafkaClients.forSelector(selector);
      if (c != null) {
        c.close();
      }
    }
  }

  /**
   * {@code doSend(ClientRequest, boolean, long, AbstractRequest)}: the request is created and
   * handed to the selector; reported on normal exit, timed at entry.
   */
  public static final class DoSendAdvice {
    private DoSendAdvice() {}

    /** On entry: the time. */
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static long enter() {
      return PhaseEvents.requestStarting();
    }

    /** On normal exit: the request is in flight. */
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(
        @Advice.Enter long start,
        @Advice.This Object client,
        @Advice.FieldValue("selector") Object selector,
        @Advice.FieldValue("connectionStates") Object states,
        @Advice.FieldValue("clientId") String clientId,
        @Advice.Argument(0) ClientRequest request) {
      if (start != 0L) {
        PhaseEvents.requestCreated(
            client,
            selector,
            states,
            clientId,
            request.destination(),
            request.correlationId(),
            request.apiKey().id,
            request.expectResponse(),
            start);
      }
    }
  }

  /**
   * {@code poll(long, long)}, on entry: closes, on the client's own thread, the connections the
   * recycler asked to close, through the client's own {@code disconnect(String)}.
   */
  public static final class PollAdvice {
    private PollAdvice() {}

    /** On entry. */
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(
        @Advice.This NetworkClient client, @Advice.FieldValue("selector") Object selector) {
      if (!ConnectionsModule.SWITCH.active()) {
        return;
      }
      KafkaClient c = KafkaClients.forSelector(selector);
      if (c == null) {
        return;
      }
      for (String node : c.takeRecycleRequests()) {
        client.disconnect(node);
      }
    }
  }
}
