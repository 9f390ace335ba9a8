package io.faultline.it.servers;

import java.lang.reflect.AnnotatedElement;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/** Skips {@link RequiresDocker} tests in {@link ServerMode#EMBEDDED} mode and prints why. */
final class RequiresDockerCondition implements ExecutionCondition {

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    Optional<RequiresDocker> annotation =
        context
            .getElement()
            .flatMap(
                (AnnotatedElement e) -> AnnotationSupport.findAnnotation(e, RequiresDocker.class));
    if (annotation.isEmpty() || ServerMode.current() == ServerMode.DOCKER) {
      return ConditionEvaluationResult.enabled("containers available");
    }
    String reason =
        context.getDisplayName()
            + " skipped: needs containers ("
            + annotation.get().value()
            + ") and the servers run embedded";
    System.out.println("[faultline-it] " + reason);
    return ConditionEvaluationResult.disabled(reason);
  }
}
