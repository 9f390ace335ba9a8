package io.faultline.core.host;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.FindingType;
import io.faultline.core.finding.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Host findings that hurt a process only while it accepts connections: a small listen backlog and
 * receive softirqs on one CPU (the broker's side of the LINE Kafka incident). The host doctor
 * raises them for the host; in a process with no listening socket of its own (a Kafka client, a
 * Streams application) they are told as information, not as a warning that points at the service.
 */
public final class ServerSideFindings {

  private static final Set<FindingType> SERVER_SIDE =
      Set.of(HostFindingTypes.LISTEN_BACKLOG_SMALL, HostFindingTypes.RECEIVE_STEERING_SINGLE_CORE);

  private ServerSideFindings() {}

  /** Whether {@code type} matters only to a process that accepts connections. */
  public static boolean isServerSide(FindingType type) {
    return SERVER_SIDE.contains(type);
  }

  /**
   * {@code findings} as this process should report them: unchanged when it {@code
   * acceptsConnections}, else each server-side one as {@link Severity#INFO}, its message saying
   * why.
   */
  public static List<Finding> forProcess(List<Finding> findings, boolean acceptsConnections) {
    if (acceptsConnections) {
      return findings;
    }
    List<Finding> told = new ArrayList<>(findings.size());
    for (Finding f : findings) {
      if (!isServerSide(f.type()) || f.severity() == Severity.INFO) {
        told.add(f);
        continue;
      }
      told.add(
          new Finding(
              f.type(),
              Severity.INFO,
              f.subject(),
              f.message()
                  + " (for information: this process accepts no connections, so it is the"
                  + " servers on this host that the limit would hurt)",
              f.evidence(),
              f.observedAt()));
    }
    return List.copyOf(told);
  }
}
