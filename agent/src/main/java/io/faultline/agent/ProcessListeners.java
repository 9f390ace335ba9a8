package io.faultline.agent;

import io.faultline.core.net.Outcome;
import io.faultline.core.net.SocketFds;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Whether this process accepts connections of its own: a listening TCP socket other than the
 * agent's endpoint. Decides whether the host doctor's server-side findings are warnings here.
 */
final class ProcessListeners {

  private ProcessListeners() {}

  /**
   * True when the process listens on a port other than {@code agentPort}, or when its sockets
   * cannot be listed (the doctor's findings then stay as the host raised them).
   */
  static boolean acceptsConnections(SocketFds sockets, Optional<Integer> agentPort) {
    Outcome<Set<Integer>> ports = sockets.listeningPorts();
    if (!ports.isAvailable()) {
      return true;
    }
    Set<Integer> own = new HashSet<>(ports.value().orElseThrow());
    agentPort.ifPresent(own::remove);
    return !own.isEmpty();
  }
}
