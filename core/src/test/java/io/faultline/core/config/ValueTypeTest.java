package io.faultline.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ValueTypeTest {

  enum Mode {
    OFF,
    WARN_ONLY,
    ON
  }

  @Test
  void parsesAndWritesBackEachType() {
    assertThat(ValueType.BOOLEAN.parse(" Yes ")).isTrue();
    assertThat(ValueType.BOOLEAN.parse("off")).isFalse();
    assertThat(ValueType.BOOLEAN.format(true)).isEqualTo("true");
    assertThat(ValueType.INTEGER.parse(" 42 ")).isEqualTo(42);
    assertThat(ValueType.DECIMAL.parse("0.5")).isEqualTo(0.5);
    assertThat(ValueType.DURATION_TYPE.parse("250 MS")).isEqualTo(Duration.ofMillis(250));
    assertThat(ValueType.DURATION_TYPE.format(Duration.ofMinutes(90))).isEqualTo("90m");
    assertThat(ValueType.DURATION_TYPE.format(Duration.ofHours(48))).isEqualTo("2d");
    assertThat(ValueType.SIZE_TYPE.parse("4MB")).isEqualTo(4L << 20);
    assertThat(ValueType.SIZE_TYPE.parse("512")).isEqualTo(512L);
    assertThat(ValueType.SIZE_TYPE.format(64L << 10)).isEqualTo("64KiB");
    assertThat(ValueType.STRING.parse("  text ")).isEqualTo("text");
    assertThat(ValueType.SECRET.format("hunter2")).isEqualTo("***");
    assertThat(ValueType.SECRET.format("")).isEmpty();
  }

  @Test
  void readsEnumConstantsLeniently() {
    ValueType<Mode> mode = ValueType.ofEnum(Mode.class);
    assertThat(mode.parse("warn-only")).isEqualTo(Mode.WARN_ONLY);
    assertThat(mode.parse(" On ")).isEqualTo(Mode.ON);
    assertThat(mode.format(Mode.WARN_ONLY)).isEqualTo("warn_only");
    assertThat(mode.expected()).isEqualTo("one of off, warn_only, on");
    assertThatThrownBy(() -> mode.parse("sometimes"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not one of off, warn_only, on");
  }

  @Test
  void refusesWhatIsNotAValueOfTheType() {
    assertThatThrownBy(() -> ValueType.BOOLEAN.parse("maybe"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a boolean");
    assertThatThrownBy(() -> ValueType.INTEGER.parse("1.5"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ValueType.DURATION_TYPE.parse("30"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a duration with a unit");
    assertThatThrownBy(() -> ValueType.SIZE_TYPE.parse("9999999999G"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
