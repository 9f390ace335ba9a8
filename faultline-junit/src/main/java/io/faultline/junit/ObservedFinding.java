package io.faultline.junit;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** One finding (an id about a subject) seen during a test, and how often it was reported. */
final class ObservedFinding {

  private final Map<String, Object> values;
  private final Attribution attribution;
  private final String thread;
  private final long sequence;
  private final AtomicInteger reports = new AtomicInteger();

  ObservedFinding(Map<String, Object> values, Attribution attribution, String thread, long seq) {
    this.values = values;
    this.attribution = attribution;
    this.thread = thread;
    this.sequence = seq;
  }

  void reportedAgain() {
    reports.incrementAndGet();
  }

  String id() {
    return text("id");
  }

  String severity() {
    return text("severity");
  }

  String subject() {
    return text("subject");
  }

  String message() {
    return text("message");
  }

  String remediation() {
    return text("remediation");
  }

  String docs() {
    return text("docs");
  }

  /** How often it was reported during the test (each savepoint after the lock, for one). */
  int reports() {
    return reports.get();
  }

  Attribution attribution() {
    return attribution;
  }

  /** The thread that first reported it. */
  String thread() {
    return thread;
  }

  long sequence() {
    return sequence;
  }

  private String text(String key) {
    Object value = values.get(key);
    return value == null ? "?" : value.toString();
  }
}
