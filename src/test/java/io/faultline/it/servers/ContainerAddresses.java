package io.faultline.it.servers;

import com.github.dockerjava.api.model.ContainerNetwork;
import java.util.Map;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;

/** The container's own IP address, read fresh (it may change when a container is restarted). */
final class ContainerAddresses {

  private ContainerAddresses() {}

  static String of(GenericContainer<?> container) {
    Map<String, ContainerNetwork> networks =
        DockerClientFactory.instance()
            .client()
            .inspectContainerCmd(container.getContainerId())
            .exec()
            .getNetworkSettings()
            .getNetworks();
    return networks.values().stream()
        .map(ContainerNetwork::getIpAddress)
        .filter(ip -> ip != null && !ip.isBlank())
        .findFirst()
        .orElseThrow(
            () -> new IllegalStateException(container.getContainerName() + " has no IP address"));
  }
}
