package io.faultline.core.host;

import java.util.Objects;
import java.util.Optional;

/**
 * Everything a check may look at: the file system, the thresholds, the first sample and, when
 * sampling, the second.
 *
 * @param proc where to read
 * @param options the thresholds
 * @param first the first sample
 * @param second the second sample, when the doctor was asked to sample
 * @param environment container or not
 */
public record DoctorContext(
    ProcFs proc,
    DoctorOptions options,
    HostSample first,
    Optional<HostSample> second,
    HostEnvironment environment) {

  /** Validates. */
  public DoctorContext {
    Objects.requireNonNull(proc, "proc");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(first, "first");
    Objects.requireNonNull(second, "second");
    Objects.requireNonNull(environment, "environment");
  }
}
