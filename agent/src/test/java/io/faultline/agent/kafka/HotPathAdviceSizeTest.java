package io.faultline.agent.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.agent.instrumentation.AgentErrors;
import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.agent.weave.AdviceReader;
import io.faultline.agent.weave.ClassWeaver;
import io.faultline.agent.weave.ErrorHook;
import io.faultline.agent.weave.MethodAdvice;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The request-phase advice leaves the kafka-clients methods it weaves about the size they were. The
 * JIT inlines a hot method into its caller only up to a size; with the work in the advice, {@code
 * Selector.write}, {@code addToCompletedReceives} and {@code NetworkClient.doSend} had outgrown it,
 * and the calls cost the busiest producer's I/O thread more than the advice's own work. Each advice
 * is now a guarded call or two with the values it reads; the work is in {@link PhaseEvents}.
 */
class HotPathAdviceSizeTest {

  /**
   * What one method may gain: the calls and the values they take, the guards, the exit block. The
   * advice that did the work itself added 64 instructions to {@code doSend} and 93 to {@code
   * Selector.write}, which the JIT then no longer inlined into their callers.
   */
  private static final int MOST_ADDED_INSTRUCTIONS = 60;

  private static final ErrorHook ERRORS =
      new ErrorHook(AgentErrors.class.getName().replace('.', '/'), "suppressed", PhasesModule.NAME);

  @Test
  void eachMethodTheRequestPhasesWeaveGainsOnlyAFewInstructions() throws IOException {
    Map<String, Integer> added = new TreeMap<>();
    for (TypeInstrumentation type : new PhasesModule().types()) {
      byte[] original = classFile(type.typeName());
      Map<String, Integer> before = instructionCounts(original);
      for (TypeInstrumentation.AdviceBinding binding : type.advice()) {
        MethodAdvice advice = AdviceReader.read(classFile(binding.adviceClassName()));
        ClassWeaver.Result result =
            ClassWeaver.weave(original, m -> binding.methods().matches(m) ? advice : null, ERRORS);
        assertThat(result.refused()).as("%s refused", binding.adviceClassName()).isEmpty();
        assertThat(result.woven()).as("methods %s wove", binding.adviceClassName()).isPositive();
        instructionCounts(result.classFile())
            .forEach(
                (method, count) -> {
                  int grown = count - before.get(method);
                  if (grown != 0) {
                    added.put(type.typeName().replaceAll(".*\\.", "") + "." + method, grown);
                  }
                });
      }
    }

    System.out.println("instructions the request-phase advice adds: " + added);
    assertThat(added.keySet())
        .as("woven methods")
        .anyMatch(m -> m.startsWith("Selector.write("))
        .anyMatch(m -> m.startsWith("Selector.attemptRead("))
        .anyMatch(m -> m.startsWith("Selector.addToCompletedReceives("))
        .anyMatch(m -> m.startsWith("Selector.poll("))
        .anyMatch(m -> m.startsWith("KafkaChannel.write("))
        .anyMatch(m -> m.startsWith("NetworkClient.doSend("));
    assertThat(added)
        .allSatisfy(
            (method, grown) ->
                assertThat(grown)
                    .as("instructions added to %s", method)
                    .isLessThanOrEqualTo(MOST_ADDED_INSTRUCTIONS));
  }

  /** Instructions of each method with code, by name and descriptor (labels and frames left out). */
  private static Map<String, Integer> instructionCounts(byte[] classFile) {
    ClassNode node = new ClassNode();
    new ClassReader(classFile).accept(node, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    Map<String, Integer> counts = new HashMap<>();
    for (MethodNode m : node.methods) {
      int n = 0;
      for (AbstractInsnNode insn : m.instructions) {
        if (insn.getOpcode() >= 0) {
          n++;
        }
      }
      counts.put(m.name + m.desc, n);
    }
    return counts;
  }

  private static byte[] classFile(String binaryName) throws IOException {
    String resource = binaryName.replace('.', '/') + ".class";
    try (InputStream in =
        HotPathAdviceSizeTest.class.getClassLoader().getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      return in.readAllBytes();
    }
  }
}
