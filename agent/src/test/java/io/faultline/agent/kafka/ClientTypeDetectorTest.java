package io.faultline.agent.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.kafka.ClientType;
import org.junit.jupiter.api.Test;

class ClientTypeDetectorTest {

  @Test
  void aBrokersOwnClientsAreToldByTheirMetricGroup() {
    assertThat(ClientTypeDetector.brokerOrConnect("replica-fetcher-metrics"))
        .isEqualTo(ClientType.REPLICA_FETCHER);
    assertThat(ClientTypeDetector.brokerOrConnect("raft-channel-metrics"))
        .isEqualTo(ClientType.RAFT);
    assertThat(ClientTypeDetector.brokerOrConnect("heartbeat-metrics"))
        .isEqualTo(ClientType.CONTROLLER_CHANNEL);
    assertThat(ClientTypeDetector.brokerOrConnect("forwarding"))
        .isEqualTo(ClientType.CONTROLLER_CHANNEL);
    assertThat(ClientTypeDetector.brokerOrConnect("txn-marker-channel"))
        .isEqualTo(ClientType.TRANSACTION_COORDINATOR);
    assertThat(ClientTypeDetector.brokerOrConnect("connect")).isEqualTo(ClientType.CONNECT);
    assertThat(ClientTypeDetector.brokerOrConnect("share-consumer-metrics"))
        .isEqualTo(ClientType.OTHER);
  }
}
