package io.faultline.core.finding;

import jdk.jfr.Label;

/**
 * The fields of a finding that both of its JDK Flight Recorder events carry ({@link
 * FindingRecording}, {@link ActiveFindingRecording}); abstract, so not an event type of its own.
 */
abstract class FindingFieldsRecording extends jdk.jfr.Event {

  @Label("Finding")
  String id;

  @Label("Severity")
  String severity;

  @Label("Subject")
  String subject;

  @Label("Message")
  String message;

  @Label("Evidence")
  String evidence;

  @Label("What to do")
  String remediation;

  /** Sets the fields from {@code finding}. */
  final void fill(Finding finding) {
    id = finding.id();
    severity = finding.severity().name();
    subject = finding.subject();
    message = finding.message();
    evidence = finding.evidence().toString();
    remediation = finding.type().remediation();
  }
}
