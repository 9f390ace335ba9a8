package io.faultline.agent.kafka;

import static io.faultline.agent.instrumentation.MethodMatcher.named;
import static io.faultline.agent.instrumentation.MethodMatcher.takesArgument;
import static io.faultline.agent.instrumentation.MethodMatcher.takesArguments;
import static io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding.nestedIn;

import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding;
import io.faultline.agent.weave.Advice;
import java.nio.channels.SocketChannel;
import java.util.List;
import org.apache.kafka.common.network.KafkaChannel;
import org.apache.kafka.common.network.NetworkReceive;
import org.apache.kafka.common.network.NetworkSend;

/**
 * Everything the agent weaves into kafka-clients' {@code Selector}, one advice per method:
 *
 * <ul>
 *   <li>{@code buildAndAttachKafkaChannel(SocketChannel, String, SelectionKey)} and {@code
 *       close(KafkaChannel, CloseMode)} ({@link ClientLifecycleModule}): a connection opens or
 *       closes, for the request phases (delivery sampling) and the connection monitor at once;
 *   <li>{@code write(KafkaChannel)}, {@code attemptRead(KafkaChannel)} and {@code
 *       addToCompletedReceives(KafkaChannel, NetworkReceive, long)} ({@link PhasesModule}): a send
 *       completes, a response starts and completes;
 *   <li>{@code poll(long)} ({@link PhasesModule}): the client's thread makes the first look at a
 *       send that became due (see {@link DeliverySampler}).
 * </ul>
 */
public final class SelectorInstrumentation {

  static final String TYPE = "org.apache.kafka.common.network.Selector";

  private SelectorInstrumentation() {}

  static TypeInstrumentation lifecycle() {
    return TypeInstrumentation.forType(
        TYPE,
        AdviceBinding.of(
            named("buildAndAttachKafkaChannel")
                .and(takesArguments(3))
                .and(takesArgument(0, "java.nio.channels.SocketChannel")),
            nestedIn(SelectorInstrumentation.class, "ChannelOpenAdvice")),
        AdviceBinding.of(
            named("close")
                .and(takesArguments(2))
                .and(takesArgument(0, KafkaChannelInstrumentation.TYPE)),
            nestedIn(SelectorInstrumentation.class, "ChannelCloseAdvice")));
  }

  static TypeInstrumentation phases() {
    return TypeInstrumentation.forType(
        TYPE,
        AdviceBinding.of(
            named("write")
                .and(takesArguments(1))
                .and(takesArgument(0, KafkaChannelInstrumentation.TYPE)),
            nestedIn(SelectorInstrumentation.class, "WriteAdvice")),
        AdviceBinding.of(
            named("attemptRead").and(takesArguments(1)),
            nestedIn(SelectorInstrumentation.class, "AttemptReadAdvice")),
        AdviceBinding.of(
            named("addToCompletedReceives").and(takesArguments(3)),
            nestedIn(SelectorInstrumentation.class, "CompletedReceiveAdvice")),
        AdviceBinding.of(
            named("poll").and(takesArguments(1)).and(takesArgument(0, "long")),
            nestedIn(SelectorInstrumentation.class, "PollAdvice")));
  }

  /**
   * {@code poll(long timeout)}: ends the poll when the client's first waiting send becomes due, and
   * afterwards wakes the delivery sampler for a due send still unanswered, so the first look at a
   * held-up request comes on time without the sampler waking twenty times a second to find out.
   */
  public static final class PollAdvice {
    private PollAdvice() {}

    /** On entry: the timeout, cut to the first due send while the sampler sleeps quietly. */
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static Object enter(
        @Advice.This Object selector, @Advice.Argument(value = 0, readOnly = false) long timeout) {
      Object client = PhaseEvents.pollStarting(selector);
      timeout = PhaseEvents.pollTimeout(client, timeout);
      return client;
    }

    /** On exit, also when the poll threw. */
    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Enter Object client) {
      PhaseEvents.pollEnded(client);
    }
  }

  /**
   * {@code buildAndAttachKafkaChannel}: a node's new socket, for delivery sampling ({@code
   * kafka.phases}) and the connection monitor ({@code kafka.tcp}); its descriptor is looked up once
   * for both.
   */
  public static final class ChannelOpenAdvice {
    private ChannelOpenAdvice() {}

    /** On normal exit. */
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(
        @Advice.This Object selector,
        @Advice.Argument(0) SocketChannel socket,
        @Advice.Argument(1) String node,
        @Advice.FieldValue("channelBuilder") Object channelBuilder) {
      KafkaClients.channelOpened(selector, node, socket, channelBuilder);
    }
  }

  /**
   * {@code close(KafkaChannel, CloseMode)}: what was in flight on the connection is forgotten and
   * the monitor stops watching it.
   */
  public static final class ChannelCloseAdvice {
    private ChannelCloseAdvice() {}

    /** On entry. */
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(
        @Advice.This Object selector, @Advice.Argument(0) KafkaChannel channel) {
      KafkaClients.channelClosed(selector, channel.id());
    }
  }

  /**
   * {@code write(KafkaChannel)}: lets {@link KafkaChannelInstrumentation.WriteAdvice} see the
   * client, and reports a completed send (a new entry in {@code completedSends}) with its size and
   * the connection's socket (adopted when its opening came before the agent's weave).
   */
  public static final class WriteAdvice {
    private WriteAdvice() {}

    /** On entry: the number of completed sends so far, or -1 when the client is unknown. */
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static int enter(
        @Advice.This Object selector, @Advice.FieldValue("completedSends") List<?> completedSends) {
      return PhaseEvents.writeStarting(selector, completedSends);
    }

    /** On exit, also when the write threw (the send then did not complete). */
    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(
        @Advice.Enter int sendsBefore,
        @Advice.This Object selector,
        @Advice.Argument(0) KafkaChannel channel,
        @Advice.FieldValue("completedSends") List<?> completedSends) {
      if (sendsBefore >= 0) {
        Object send = PhaseEvents.writeEnded(sendsBefore, completedSends);
        if (send != null) {
          PhaseEvents.sendCompleted(
              selector, channel.id(), ((NetworkSend) send).size(), channel.selectionKey());
        }
      }
    }
  }

  /**
   * {@code attemptRead(KafkaChannel)}: called when response bytes wait on the socket; the first
   * call for a response marks its start (later calls for the same response change nothing).
   */
  public static final class AttemptReadAdvice {
    private AttemptReadAdvice() {}

    /** On entry. */
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(
        @Advice.This Object selector, @Advice.Argument(0) KafkaChannel channel) {
      PhaseEvents.responseStarted(selector, channel.id());
    }
  }

  /**
   * {@code addToCompletedReceives(KafkaChannel, NetworkReceive, long)}: a response is complete; its
   * correlation id is the first int of the payload (the response header).
   */
  public static final class CompletedReceiveAdvice {
    private CompletedReceiveAdvice() {}

    /** On entry. */
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(
        @Advice.This Object selector,
        @Advice.Argument(0) KafkaChannel channel,
        @Advice.Argument(1) NetworkReceive receive) {
      PhaseEvents.responseCompleted(selector, channel.id(), receive.payload());
    }
  }
}
