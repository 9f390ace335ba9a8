package io.faultline.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgentRegistryTest {

  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final AgentRegistry late =
      new AgentRegistry(new PrintStream(errBytes, true, StandardCharsets.UTF_8));

  @Test
  void actionsWaitForTheRegistryAndRunInTheOrderTheyCame() {
    List<String> ran = new ArrayList<>();
    late.whenReady(r -> ran.add("first"));
    late.whenReady(r -> ran.add("second"));

    assertThat(ran).isEmpty();
    assertThat(late.waiting()).isEqualTo(2);

    MeterRegistry registry = late.get();
    assertThat(ran).containsExactly("first", "second");
    assertThat(late.waiting()).isZero();
    assertThat(late.get()).isSameAs(registry);

    late.whenReady(r -> ran.add(r == registry ? "at once, same registry" : "other registry"));
    assertThat(ran).last().isEqualTo("at once, same registry");
  }

  @Test
  void anActionHandedOverWhileTheQueueRunsRunsAfterTheEarlierOnes() {
    List<String> ran = new ArrayList<>();
    late.whenReady(
        r -> {
          ran.add("first");
          late.whenReady(x -> ran.add("handed over by the first"));
        });
    late.whenReady(r -> ran.add("second"));

    late.get();

    assertThat(ran).containsExactly("first", "second", "handed over by the first");
  }

  @Test
  void aFailingActionIsReportedAndTheOthersStillRun() {
    List<String> ran = new ArrayList<>();
    late.whenReady(
        r -> {
          throw new IllegalStateException("duplicate meter");
        });
    late.whenReady(r -> ran.add("after the failure"));

    late.get();

    assertThat(ran).containsExactly("after the failure");
    assertThat(errBytes.toString(StandardCharsets.UTF_8))
        .contains("registering meters failed, going on without them")
        .contains("duplicate meter");
  }

  @Test
  void theRegisteredMetersAreInTheRegistry() {
    late.whenReady(r -> r.counter("faultline.test.early").increment());

    assertThat(late.get().get("faultline.test.early").counter().count()).isEqualTo(1.0);
  }
}
