package io.faultline.kafka.phase;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;

class ApiNamesTest {

  @Test
  void theTableNamesEveryIdAsTheKafkaClientsOnTheClassPathDoes() {
    for (ApiKeys key : ApiKeys.values()) {
      assertThat(ApiNames.fromTable(key.id))
          .as("id %d", key.id)
          .isEqualTo(key.name().toLowerCase(Locale.ROOT));
      assertThat(ApiNames.of(key.id)).isEqualTo(ApiNames.fromTable(key.id));
    }
  }

  @Test
  void anUnknownIdIsNamedByItsNumber() {
    assertThat(ApiNames.fromTable((short) 999)).isEqualTo("api_999");
    assertThat(ApiNames.of((short) -1)).isEqualTo("api_-1");
  }
}
