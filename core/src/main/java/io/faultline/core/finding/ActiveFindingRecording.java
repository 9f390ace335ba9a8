package io.faultline.core.finding;

import java.util.List;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timestamp;

/**
 * The JDK Flight Recorder event of a finding in force when a recording's chunk begins or ends.
 *
 * <p>{@link FindingRecording} records changes, which a recording started after a finding was raised
 * (by {@code jcmd}, or by {@code -XX:StartFlightRecording} while the agent's first checks ran)
 * never sees; this one states what is active, as JFR's own {@code jdk.ActiveSetting} does.
 */
@Name("io.faultline.ActiveFinding")
@Label("Active Finding")
@Category("Faultline")
@Description("A Faultline finding in force when a recording chunk began or ended")
@StackTrace(false)
@Period("everyChunk")
final class ActiveFindingRecording extends FindingFieldsRecording {

  @Label("Active Since")
  @Timestamp(Timestamp.MILLISECONDS_SINCE_EPOCH)
  long since;

  /** One event per active finding; called by Flight Recorder on its periodic thread. */
  static void commitAll(List<Findings.Since> active) {
    for (Findings.Since entry : active) {
      ActiveFindingRecording e = new ActiveFindingRecording();
      e.fill(entry.finding());
      e.since = entry.since().toEpochMilli();
      e.commit();
    }
  }

  /** Registers the periodic hook of {@code findings}; touches {@code jdk.jfr} only when called. */
  static Runnable register(Findings findings) {
    Runnable hook = findings::recordActive;
    jdk.jfr.FlightRecorder.addPeriodicEvent(ActiveFindingRecording.class, hook);
    return hook;
  }

  /** Removes a hook {@link #register} returned. */
  static void unregister(Runnable hook) {
    jdk.jfr.FlightRecorder.removePeriodicEvent(hook);
  }
}
