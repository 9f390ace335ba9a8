package io.faultline.testcontainers;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Bad arguments are refused before anything connects; what each fault does to a real PostgreSQL is
 * the integration suite's {@code PostgresFaultsTest}.
 */
class PostgresFaultsArgumentsTest {

  // No driver on this class path and nothing listens there: making a fault fails, saying where.
  private final PostgresFaults faults =
      PostgresFaults.on("jdbc:postgresql://127.0.0.1:1/none", "user", "password");

  @Test
  void refusesBadArgumentsWithoutConnecting() {
    assertThatThrownBy(() -> faults.subtransactions(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("subtransactions: count must be at least 1, was 0");
    assertThatThrownBy(() -> faults.hotRow(null, "id = 1"))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("table");
    assertThatThrownBy(() -> PostgresFaults.on(null, "u", "p"))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("jdbcUrl");
  }

  @Test
  void saysWhereItCouldNotConnect() {
    assertThatThrownBy(faults::longTransaction)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith(
            "cannot hold a long transaction on jdbc:postgresql://127.0.0.1:1/none: ");
  }
}
