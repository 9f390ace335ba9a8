package io.faultline.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

class MeterDocTest {

  private static final MeterDoc BYTES =
      new MeterDoc(
          "faultline.test.bytes",
          MeterDoc.Type.DISTRIBUTION_SUMMARY,
          "bytes",
          List.of("node"),
          "Bytes.",
          "test");

  @Test
  void registersWithTheDeclaredNameDescriptionUnitAndTags() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();

    BYTES.summary().tags(BYTES.tags("1")).register(registry).record(10);

    assertThat(registry.get("faultline.test.bytes").summary().getId())
        .satisfies(
            id -> {
              assertThat(id.getDescription()).isEqualTo("Bytes.");
              assertThat(id.getBaseUnit()).isEqualTo("bytes");
              assertThat(id.getTags()).containsExactly(Tag.of("node", "1"));
            });
  }

  @Test
  void refusesTagsOrBuildersThatDoNotMatchTheDeclaration() {
    assertThatThrownBy(() -> BYTES.tags("1", "2"))
        .hasMessageContaining("declared with tags [node]");
    assertThatThrownBy(BYTES::counter).hasMessageContaining("declared as DISTRIBUTION_SUMMARY");
    assertThatThrownBy(
            () -> new MeterDoc("Bad Name", MeterDoc.Type.GAUGE, "x", List.of(), "d", "f"))
        .hasMessageContaining("lowercase and dotted");
  }
}
