package io.faultline.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommonTagsTest {

  private static final MeterDoc OUTCOMES =
      new MeterDoc(
          "faultline.test.things",
          MeterDoc.Type.COUNTER,
          "things",
          List.of("outcome"),
          "Things by outcome.",
          "test");

  @Test
  void pairsKeysAndValues() {
    assertThat(CommonTags.of("tags", "db", "orders", "region", "eu"))
        .containsExactly(Tag.of("db", "orders"), Tag.of("region", "eu"));
    assertThat(CommonTags.of("tags", List.of(Tag.of("db", "orders"))))
        .containsExactly(Tag.of("db", "orders"));
    assertThat(CommonTags.of("tags")).isEmpty();
  }

  @Test
  void refusesMalformedInputNamingTheField() {
    assertThatThrownBy(() -> CommonTags.of("tags", (String[]) null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("tags");
    assertThatThrownBy(() -> CommonTags.of("tags", (Iterable<Tag>) null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("tags");
    assertThatThrownBy(() -> CommonTags.of("tags", "db", "orders", "region"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tags: key/value pairs expected, got an odd count 3");
    assertThatThrownBy(() -> CommonTags.of("tags", "db", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("tags: null value for key db");
    assertThatThrownBy(() -> CommonTags.of("tags", " ", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("tags: blank key");
    assertThatThrownBy(() -> CommonTags.of("tags", Arrays.asList(Tag.of("db", "x"), null)))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("tags contains null");
  }

  @Test
  void refusesAKeyTheMetersSetThemselves() {
    Tags db = Tags.of("db", "orders");
    assertThat(CommonTags.refuseDeclared("tags", db, List.of(OUTCOMES))).isEqualTo(db);

    assertThatThrownBy(
            () -> CommonTags.refuseDeclared("tags", Tags.of("outcome", "x"), List.of(OUTCOMES)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tags: tag key 'outcome' is set by the meter faultline.test.things");
  }
}
