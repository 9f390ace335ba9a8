package io.faultline.core.host;

import java.net.InetSocketAddress;
import java.util.Set;

/**
 * What the server process knows of the clients behind the connections it accepted: on a Kafka
 * broker, the client id each connection's requests carry. {@link AcceptedConnections} names a
 * client by it (with its address) where one is known.
 */
public interface ClientNames {

  /** Knows no names: clients are named by address alone. */
  ClientNames NONE =
      new ClientNames() {
        @Override
        public String nameOf(InetSocketAddress client) {
          return null;
        }

        @Override
        public void retainOnly(Set<InetSocketAddress> open) {}
      };

  /**
   * The name of the client whose connection comes from {@code client} (its address and port), or
   * null when none is known.
   */
  String nameOf(InetSocketAddress client);

  /** Forgets every connection but {@code open}, the ones accepted and still open. */
  void retainOnly(Set<InetSocketAddress> open);
}
