package io.faultline.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.faultline.agent.weave.AdviceReader;
import io.faultline.agent.weave.MethodAdvice;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every shipped advice class can be inlined into the library it targets: it parses as advice, and
 * every member of the agent's own classes its code uses is public in a public class (inlined, the
 * code runs in the library's class, where anything else fails with an {@code IllegalAccessError} at
 * its first call). The agent does not repeat this check at start-up: it is a property of the build.
 */
class ShippedAdviceIsInlinableTest {

  private static final ClassLoader APP = ShippedAdviceIsInlinableTest.class.getClassLoader();

  @Test
  void everyShippedAdviceUsesOnlyPublicMembersOfTheAgent() {
    List<InstrumentationModule> shipped = ShippedModules.in(APP);
    Set<String> adviceClasses = new TreeSet<>();
    for (InstrumentationModule module : shipped) {
      for (TypeInstrumentation type : module.types()) {
        for (TypeInstrumentation.AdviceBinding binding : type.advice()) {
          adviceClasses.add(binding.adviceClassName());
        }
      }
    }

    assertThat(adviceClasses).as("advice classes of the shipped modules").hasSizeGreaterThan(20);
    for (String adviceClass : adviceClasses) {
      byte[] classFile = ClassFileBytes.read(APP, adviceClass.replace('.', '/'));
      assertThat(classFile).as("class file of %s", adviceClass).isNotNull();
      assertThatCode(
              () -> {
                MethodAdvice advice = AdviceReader.read(classFile);
                AdviceReader.requirePublicReferences(
                    advice, "io/faultline/", owner -> ClassFileBytes.read(APP, owner));
              })
          .as("%s inlined into its target", adviceClass)
          .doesNotThrowAnyException();
    }
  }
}
