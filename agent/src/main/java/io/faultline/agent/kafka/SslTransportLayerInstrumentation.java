package io.faultline.agent.kafka;

import static io.faultline.agent.instrumentation.MethodMatcher.named;
import static io.faultline.agent.instrumentation.MethodMatcher.takesArgument;
import static io.faultline.agent.instrumentation.MethodMatcher.takesArguments;
import static io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding.nestedIn;

import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding;
import io.faultline.agent.weave.Advice;
import java.nio.ByteBuffer;

/**
 * Everything the agent weaves into kafka-clients' {@code SslTransportLayer}: {@code
 * flush(ByteBuffer)} ({@link PhasesModule}), the TLS records of a request handed to the socket.
 * Over TLS the bytes on the wire are not the request's: the delivery sample needs these.
 */
public final class SslTransportLayerInstrumentation {

  static final String TYPE = "org.apache.kafka.common.network.SslTransportLayer";

  private SslTransportLayerInstrumentation() {}

  static TypeInstrumentation phases() {
    return TypeInstrumentation.forType(
        TYPE,
        AdviceBinding.of(
            named("flush").and(takesArguments(1)).and(takesArgument(0, "java.nio.ByteBuffer")),
            nestedIn(SslTransportLayerInstrumentation.class, "FlushAdvice")));
  }

  /**
   * {@code flush(ByteBuffer)}: the bytes of records it wrote to the socket (only inside {@code
   * Selector.write}, whose advice says which client through {@link ChannelWrites}; the handshake's
   * are not a request's).
   */
  public static final class FlushAdvice {
    private FlushAdvice() {}

    /** On entry: the bytes waiting in the buffer, or -1 when the phases are off. */
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static int enter(@Advice.Argument(0) ByteBuffer buffer) {
      return PhasesModule.SWITCH.active() ? buffer.remaining() : -1;
    }

    /** On normal exit: what left the buffer went to the socket. */
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(
        @Advice.Enter int before,
        @Advice.Argument(0) ByteBuffer buffer,
        @Advice.FieldValue("channelId") String channelId) {
      if (before > 0) {
        ChannelWrites.recordsWritten(channelId, before - buffer.remaining());
      }
    }
  }
}
