package io.faultline.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClientTagsTest {

  @Test
  void clientIdsAreSanitisedAndCapped() {
    assertThat(ClientTags.clientId("producer-1")).isEqualTo("producer-1");
    assertThat(ClientTags.clientId("a b/c")).isEqualTo("a_b_c");
    assertThat(ClientTags.clientId("")).isEqualTo("none");
    assertThat(ClientTags.clientId(null)).isEqualTo("none");
    assertThat(ClientTags.clientId("x".repeat(500))).hasSize(ClientTags.MAX_CLIENT_ID_LENGTH);
  }

  @Test
  void nodeIdsAreNumbersCoordinatorsOrOneOfThreeWords() {
    assertThat(ClientTags.nodeId("3")).isEqualTo("3");
    assertThat(ClientTags.nodeId("-1")).isEqualTo("bootstrap");
    // kafka-clients' group coordinator connection to broker 1 and to broker 0
    assertThat(ClientTags.nodeId("2147483646")).isEqualTo("coordinator-1");
    assertThat(ClientTags.nodeId("2147483647")).isEqualTo("coordinator-0");
    assertThat(ClientTags.nodeId("9999999999")).isEqualTo("9999999999");
    assertThat(ClientTags.nodeId("coordinator-x")).isEqualTo("other");
    assertThat(ClientTags.nodeId(null)).isEqualTo("none");
  }
}
