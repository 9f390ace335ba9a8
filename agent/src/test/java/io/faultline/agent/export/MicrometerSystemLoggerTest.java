package io.faultline.agent.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.common.util.internal.logging.InternalLogger;
import io.micrometer.common.util.internal.logging.InternalLoggerFactory;
import org.junit.jupiter.api.Test;

class MicrometerSystemLoggerTest {

  @Test
  void placeholdersTakeTheArgumentsInOrder() {
    assertThat(MicrometerSystemLogger.format("meter {} has tags {}", "a", 2))
        .isEqualTo("meter a has tags 2");
  }

  @Test
  void placeholdersBeyondTheArgumentsStayAsWritten() {
    assertThat(MicrometerSystemLogger.format("{} and {}", "one")).isEqualTo("one and {}");
    assertThat(MicrometerSystemLogger.format("no placeholder", "left over"))
        .isEqualTo("no placeholder");
    assertThat(MicrometerSystemLogger.format(null)).isEqualTo("null");
  }

  @Test
  void aThrowableNoPlaceholderUsedIsTheCause() {
    IllegalStateException e = new IllegalStateException("x");

    assertThat(MicrometerSystemLogger.cause("failed for {}", "m", e)).isSameAs(e);
    assertThat(MicrometerSystemLogger.cause("failed for {}: {}", "m", e)).isNull();
    assertThat(MicrometerSystemLogger.cause("failed", "not a throwable")).isNull();
    assertThat(MicrometerSystemLogger.cause("failed")).isNull();
  }

  @Test
  void theFactoryMakesTheseLoggersNamedAsAsked() {
    InternalLoggerFactory before = InternalLoggerFactory.getDefaultFactory();
    InternalLoggerFactory.setDefaultFactory(MicrometerSystemLogger.FACTORY);
    try {
      InternalLogger logger = InternalLoggerFactory.getInstance("x.y");

      assertThat(logger).isInstanceOf(MicrometerSystemLogger.class);
      assertThat(logger.name()).isEqualTo("x.y");
    } finally {
      InternalLoggerFactory.setDefaultFactory(before);
    }
  }
}
