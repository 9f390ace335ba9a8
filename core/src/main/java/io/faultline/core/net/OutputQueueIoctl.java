package io.faultline.core.net;

import java.util.Locale;
import java.util.Set;

/**
 * Linux's {@code ioctl(fd, SIOCOUTQ, &int)} on a TCP socket: the bytes written and not yet
 * acknowledged by the peer ({@code write_seq - snd_una}; 0 while connecting, {@code EINVAL} on a
 * listening socket). Its request number is {@code TIOCOUTQ}'s, which differs between processor
 * architectures, so it is used only where it is known.
 */
public final class OutputQueueIoctl {

  /** {@code SIOCOUTQ} on x86-64, AArch64, RISC-V and s390x Linux. */
  public static final long REQUEST = 0x5411;

  private static final Set<String> KNOWN_ARCHITECTURES =
      Set.of("amd64", "x86_64", "aarch64", "riscv64", "s390x");

  private OutputQueueIoctl() {}

  /** Whether {@link #REQUEST} is {@code SIOCOUTQ} on this JVM's architecture. */
  public static boolean isKnownHere() {
    return KNOWN_ARCHITECTURES.contains(System.getProperty("os.arch", "").toLowerCase(Locale.ROOT));
  }
}
