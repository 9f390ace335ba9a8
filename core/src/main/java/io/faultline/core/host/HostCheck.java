package io.faultline.core.host;

/** One check of the host doctor. Implementations read through the context and never throw. */
public interface HostCheck {

  /** A short name for the table, e.g. {@code syn-cookie kernel bug}. */
  String name();

  /** Whose values this check reads. */
  ReadingScope scope();

  /** Runs the check. */
  CheckResult run(DoctorContext context);
}
