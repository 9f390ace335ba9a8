package io.faultline.agent.kafka;

import static io.faultline.agent.instrumentation.MethodMatcher.named;
import static io.faultline.agent.instrumentation.MethodMatcher.takesArguments;
import static io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding.nestedIn;

import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding;
import io.faultline.agent.weave.Advice;
import org.apache.kafka.common.network.KafkaChannel;

/**
 * Everything the agent weaves into kafka-clients' {@code KafkaChannel}: {@code write()} ({@link
 * PhasesModule}), the bytes of a request handed to the socket, and the transport layer that wrote
 * them (whether those are the bytes on the wire, or TLS records made of them).
 */
public final class KafkaChannelInstrumentation {

  static final String TYPE = "org.apache.kafka.common.network.KafkaChannel";

  private KafkaChannelInstrumentation() {}

  static TypeInstrumentation phases() {
    return TypeInstrumentation.forType(
        TYPE,
        AdviceBinding.of(
            named("write").and(takesArguments(0)),
            nestedIn(KafkaChannelInstrumentation.class, "WriteAdvice")));
  }

  /**
   * {@code write()}: bytes were handed to the socket (only inside {@code Selector.write}, whose
   * advice says which client through {@link ChannelWrites}).
   */
  public static final class WriteAdvice {
    private WriteAdvice() {}

    /** On normal exit, with the bytes written and the layer they went through. */
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(
        @Advice.This KafkaChannel channel,
        @Advice.Return long written,
        @Advice.FieldValue("transportLayer") Object transportLayer) {
      if (written > 0) {
        ChannelWrites.written(channel.id(), written, transportLayer);
      }
    }
  }
}
