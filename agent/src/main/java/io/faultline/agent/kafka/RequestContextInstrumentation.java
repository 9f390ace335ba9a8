package io.faultline.agent.kafka;

import static io.faultline.agent.instrumentation.MethodMatcher.isConstructor;
import static io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding.nestedIn;

import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding;
import io.faultline.agent.weave.Advice;
import io.faultline.kafka.broker.RequestClientIds;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * What the agent weaves into kafka-clients' {@code RequestContext}, which a broker builds for every
 * request it reads: after each constructor, the connection id and the header's client id go to
 * {@link RequestClientIds}. Both are public final fields in every kafka-clients from 2.x to 4.x.
 */
public final class RequestContextInstrumentation {

  static final String TYPE = "org.apache.kafka.common.requests.RequestContext";

  private RequestContextInstrumentation() {}

  static TypeInstrumentation clientIds() {
    return TypeInstrumentation.forType(
        TYPE,
        AdviceBinding.of(
            isConstructor(), nestedIn(RequestContextInstrumentation.class, "ConstructedAdvice")));
  }

  /** A request's context was built: its connection and client id. */
  public static final class ConstructedAdvice {
    private ConstructedAdvice() {}

    /** On exit of the constructor. */
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(
        @Advice.FieldValue("connectionId") String connectionId,
        @Advice.FieldValue("header") RequestHeader header) {
      if (!BrokerClientIdsModule.SWITCH.active() || header == null) {
        return;
      }
      RequestClientIds.instance().seen(connectionId, header.clientId());
    }
  }
}
