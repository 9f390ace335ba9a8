package io.faultline.core.finding;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** The JDK Flight Recorder event of a finding's change: raised, updated or cleared. */
@Name("io.faultline.Finding")
@Label("Finding")
@Category("Faultline")
@Description("A Faultline finding became active, changed or cleared")
@StackTrace(false)
final class FindingRecording extends FindingFieldsRecording {

  @Label("Change")
  @Description("raised, updated or cleared")
  String change;

  /** Commits one change when a recording wants it; cheap when none does. */
  static void commit(FindingEvent.Kind kind, Finding finding) {
    FindingRecording e = new FindingRecording();
    if (!e.shouldCommit()) {
      return;
    }
    e.change = kind.name().toLowerCase(java.util.Locale.ROOT);
    e.fill(finding);
    e.commit();
  }
}
