package io.faultline.core.finding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class FindingBuilderTest {

  @Test
  void refusesEveryNullNamingTheField() {
    assertThatThrownBy(() -> Finding.of(null, "subject"))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("type");
    assertThatThrownBy(() -> Finding.of(FindingsTest.HINT, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("subject");
    Finding.Builder b = Finding.of(FindingsTest.HINT, "subject");
    assertThatThrownBy(() -> b.severity(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("severity");
    assertThatThrownBy(() -> b.message(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("message");
    assertThatThrownBy(() -> b.evidence(null, 1))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("name");
    assertThatThrownBy(() -> b.evidence("rtt", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("rtt");
    assertThatThrownBy(() -> b.observedAt(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("observedAt");

    Instant at = Instant.parse("2026-01-01T00:00:00Z");
    assertThat(b.observedAt(at).build().observedAt()).isEqualTo(at);
  }
}
