package io.faultline.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import org.junit.jupiter.api.Test;

/**
 * What needs no broker: arguments refused before anything runs, the capability check and the
 * counters' parsing. What each fault does to a real broker is the integration suite's {@code
 * KafkaFaultsTest}.
 */
class KafkaFaultsArgumentsTest {

  @Test
  void refusesARateTcDoesNotKnowBeforeTouchingTheContainer() {
    // Never started: a valid rate would fail on the container, a bad one fails first.
    KafkaFaults faults = KafkaFaults.on(new org.testcontainers.containers.GenericContainer<>("x"));
    assertThatThrownBy(() -> faults.slowLink("fast"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("slowLink: rate must be a tc rate such as 1mbit or 500kbit, was fast");
    assertThatThrownBy(() -> faults.slowLink("1mbit"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the container has not been started");
  }

  @Test
  void netAdminIsGrantedByTheCapabilityAllOrPrivilegedMode() {
    assertThat(NamespaceShell.hasNetAdmin(new HostConfig())).isFalse();
    assertThat(NamespaceShell.hasNetAdmin(new HostConfig().withCapAdd(Capability.NET_RAW)))
        .isFalse();
    assertThat(NamespaceShell.hasNetAdmin(new HostConfig().withCapAdd(Capability.NET_ADMIN)))
        .isTrue();
    assertThat(NamespaceShell.hasNetAdmin(new HostConfig().withCapAdd(Capability.ALL))).isTrue();
    assertThat(NamespaceShell.hasNetAdmin(new HostConfig().withPrivileged(true))).isTrue();
  }

  @Test
  void readsTheListenQueueCountersFromNetstat() {
    String netstat =
        "TcpExt: SyncookiesSent SyncookiesRecv ListenOverflows ListenDrops\n"
            + "TcpExt: 7 3 12 15\n"
            + "IpExt: InNoRoutes\n"
            + "IpExt: 0\n";
    ListenQueue q = ListenQueue.parse(netstat);
    assertThat(q).isEqualTo(new ListenQueue(12, 15, 7));
    assertThat(q.since(new ListenQueue(2, 5, 7))).isEqualTo(new ListenQueue(10, 10, 0));
  }

  @Test
  void smallListenBacklogRefusesAnEmptyQueue() {
    assertThatThrownBy(
            () ->
                KafkaFaults.smallListenBacklog(
                    new org.testcontainers.containers.GenericContainer<>("x"), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("smallListenBacklog: backlog must be at least 1");
  }
}
