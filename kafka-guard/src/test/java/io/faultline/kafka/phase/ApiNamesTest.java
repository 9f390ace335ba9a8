package io.faultline.kafka.phase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Locale;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;

class ApiNamesTest {

  /** The table is kafka-clients 4.4's names; other versions renamed a few of the later ids. */
  @Test
  void theTableIsKafkaClients44sNames() throws Exception {
    String version = kafkaClientsVersion();
    assumeTrue(
        version.startsWith("4.4."),
        "the table is compared with kafka-clients 4.4; on the class path: " + version);
    for (ApiKeys key : ApiKeys.values()) {
      assertThat(ApiNames.fromTable(key.id))
          .as("id %d", key.id)
          .isEqualTo(key.name().toLowerCase(Locale.ROOT));
    }
  }

  @Test
  void theClientsRequestsAreNamedAlikeInEveryVersion() {
    for (ApiKeys key : ApiKeys.values()) {
      if (key.id <= 22) { // produce ... init_producer_id: what clients send
        assertThat(ApiNames.fromTable(key.id))
            .as("id %d", key.id)
            .isEqualTo(key.name().toLowerCase(Locale.ROOT));
      }
      assertThat(ApiNames.of(key.id)).isEqualTo(key.name().toLowerCase(Locale.ROOT));
    }
  }

  @Test
  void anUnknownIdIsNamedByItsNumber() {
    assertThat(ApiNames.fromTable((short) 999)).isEqualTo("api_999");
    assertThat(ApiNames.of((short) -1)).isEqualTo("api_-1");
  }

  /** What kafka-clients' own AppInfoParser reads (the class moved between versions). */
  private static String kafkaClientsVersion() throws java.io.IOException {
    java.util.Properties props = new java.util.Properties();
    try (java.io.InputStream in =
        ApiKeys.class.getResourceAsStream("/kafka/kafka-version.properties")) {
      props.load(in);
    }
    return props.getProperty("version", "unknown");
  }
}
