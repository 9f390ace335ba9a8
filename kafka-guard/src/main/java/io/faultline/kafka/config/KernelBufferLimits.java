package io.faultline.kafka.config;

import io.faultline.core.host.ProcFs;
import java.util.OptionalLong;

/**
 * The kernel's socket-buffer ceilings: {@code net.core.rmem_max}/{@code wmem_max} cap what an
 * application may ask for ({@code send.buffer.bytes} &gt; 0), {@code tcp_rmem}/{@code tcp_wmem}'s
 * third number caps autotuning ({@code -1}). Absent values are unknown, not zero.
 *
 * @param rmemMax {@code net.core.rmem_max}
 * @param wmemMax {@code net.core.wmem_max}
 * @param tcpRmemMax third number of {@code net.ipv4.tcp_rmem}
 * @param tcpWmemMax third number of {@code net.ipv4.tcp_wmem}
 */
public record KernelBufferLimits(
    OptionalLong rmemMax, OptionalLong wmemMax, OptionalLong tcpRmemMax, OptionalLong tcpWmemMax) {

  /** Nothing known (not Linux, or the advice runs for another host). */
  public static KernelBufferLimits unknown() {
    return new KernelBufferLimits(
        OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty());
  }

  /** Reads them through {@code proc} (the host's, or a fixture tree's). */
  public static KernelBufferLimits read(ProcFs proc) {
    return new KernelBufferLimits(
        proc.sysctl("net.core.rmem_max"),
        proc.sysctl("net.core.wmem_max"),
        third(proc, "net.ipv4.tcp_rmem"),
        third(proc, "net.ipv4.tcp_wmem"));
  }

  private static OptionalLong third(ProcFs proc, String name) {
    return proc.sysctlNumbers(name)
        .filter(v -> v.length >= 3)
        .map(v -> OptionalLong.of(v[2]))
        .orElse(OptionalLong.empty());
  }
}
