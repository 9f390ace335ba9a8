package io.faultline.core.net.churn;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import org.junit.jupiter.api.Test;

class ConnectChurnTest {

  @Test
  void countsConnectsPerDestination() throws Exception {
    ConnectChurn churn = new ConnectChurn(8);
    InetSocketAddress backend = new InetSocketAddress(InetAddress.getByName("10.0.0.7"), 8080);

    for (int i = 0; i < 3; i++) {
      churn.connected(backend);
    }
    churn.connected(new InetSocketAddress(InetAddress.getByName("10.0.0.8"), 5432));

    assertThat(churn.totals())
        .containsEntry("10.0.0.7:8080", 3L)
        .containsEntry("10.0.0.8:5432", 1L);
    assertThat(churn.total("10.0.0.7:8080")).isEqualTo(3);
  }

  @Test
  void destinationsBeyondTheCapAreCountedAsOther() throws Exception {
    ConnectChurn churn = new ConnectChurn(2);
    for (int port = 1; port <= 5; port++) {
      churn.connected(new InetSocketAddress(InetAddress.getByName("10.0.0.1"), port));
    }

    assertThat(churn.destinations()).isEqualTo(2);
    assertThat(churn.totals()).containsEntry(ConnectChurn.OTHER, 3L).hasSize(3);
    assertThat(churn.total(ConnectChurn.OTHER)).isEqualTo(3);
  }

  @Test
  void ipv4MappedAndIpv6AddressesGetReadableNames() throws Exception {
    assertThat(ConnectChurn.name(new InetSocketAddress(InetAddress.getByName("::1"), 9092)))
        .isEqualTo("[0:0:0:0:0:0:0:1]:9092");
    assertThat(ConnectChurn.name(InetSocketAddress.createUnresolved("::ffff:10.1.2.3", 80)))
        .isEqualTo("10.1.2.3:80");
    assertThat(ConnectChurn.name(InetSocketAddress.createUnresolved("kafka-1", 9092)))
        .isEqualTo("kafka-1:9092");
  }

  @Test
  void ignoresAddressesThatAreNotIp() {
    ConnectChurn churn = new ConnectChurn(2);
    churn.connected(UnixDomainSocketAddress.of("/tmp/x.sock"));
    churn.connected(null);
    assertThat(churn.totals()).isEmpty();
  }
}
