package io.faultline.kafka.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RequestClientIdsTest {

  @Test
  void theRemoteEndIsReadFromTheBrokersConnectionId() {
    // Kafka 2.x and 3.x: local-remote-index; 4.x: local-remote-processor-index.
    assertThat(RequestClientIds.remoteOf("10.0.0.2:9092-10.0.0.7:51234-17"))
        .isEqualTo(new InetSocketAddress("10.0.0.7", 51234));
    assertThat(RequestClientIds.remoteOf("10.0.0.2:9092-10.0.0.7:51234-2-17"))
        .isEqualTo(new InetSocketAddress("10.0.0.7", 51234));
    assertThat(RequestClientIds.remoteOf("0:0:0:0:0:0:0:1:9092-0:0:0:0:0:0:0:1:40000-3"))
        .isEqualTo(new InetSocketAddress("::1", 40000));
  }

  @Test
  void connectionIdsOfAnotherShapeAreIgnoredWithoutALookup() {
    assertThat(RequestClientIds.remoteOf("node-1")).isNull();
    assertThat(RequestClientIds.remoteOf("10.0.0.2:9092-broker.example:51234-1")).isNull();
    assertThat(RequestClientIds.remoteOf("10.0.0.2:9092-10.0.0.7:notaport-1")).isNull();
    assertThat(RequestClientIds.remoteOf("10.0.0.2:9092-10.0.0.7:70000-1")).isNull();
    assertThat(RequestClientIds.remoteOf("")).isNull();
  }

  @Test
  void aConnectionIsNamedByItsLatestClientIdAndForgottenOnceClosed() {
    RequestClientIds ids = new RequestClientIds(10);
    InetSocketAddress a = new InetSocketAddress("10.0.0.7", 51234);
    InetSocketAddress b = new InetSocketAddress("10.0.0.8", 40000);
    ids.seen("10.0.0.2:9092-10.0.0.7:51234-1", "orders-producer");
    ids.seen("10.0.0.2:9092-10.0.0.8:40000-2", "billing-consumer");
    assertThat(ids.nameOf(a)).isEqualTo("orders-producer");
    assertThat(ids.nameOf(b)).isEqualTo("billing-consumer");
    ids.seen("10.0.0.2:9092-10.0.0.7:51234-1", "orders-producer-2");
    assertThat(ids.nameOf(a)).isEqualTo("orders-producer-2");

    ids.retainOnly(Set.of(b));
    assertThat(ids.nameOf(a)).isNull();
    assertThat(ids.nameOf(b)).isEqualTo("billing-consumer");
    ids.seen(null, "x");
    ids.seen("10.0.0.2:9092-10.0.0.9:1-3", null);
    assertThat(ids.nameOf(new InetSocketAddress("10.0.0.9", 1))).isNull();
  }

  @Test
  void pastItsBoundNewConnectionsAreCountedNotRemembered() {
    RequestClientIds ids = new RequestClientIds(2);
    ids.seen("10.0.0.2:9092-10.0.0.7:1-1", "a");
    ids.seen("10.0.0.2:9092-10.0.0.7:2-2", "b");
    ids.seen("10.0.0.2:9092-10.0.0.7:3-3", "c");
    assertThat(ids.nameOf(new InetSocketAddress("10.0.0.7", 3))).isNull();
    assertThat(ids.notRemembered()).isEqualTo(1);
    // A known connection changing its id is no new connection.
    ids.seen("10.0.0.2:9092-10.0.0.7:2-2", "b2");
    assertThat(ids.nameOf(new InetSocketAddress("10.0.0.7", 2))).isEqualTo("b2");
    assertThat(ids.notRemembered()).isEqualTo(1);
  }
}
