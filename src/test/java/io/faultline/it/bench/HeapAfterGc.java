package io.faultline.it.bench;

import java.lang.management.ManagementFactory;

/** Heap in use after full collections, as {@code MemoryMXBean} reports it. */
final class HeapAfterGc {

  private HeapAfterGc() {}

  /**
   * G1's full collection leaves regions that are at least 95 % live uncompacted, their dead objects
   * in place ({@code MarkSweepDeadRatio}, 5 by default), and counts them as used: with it, heap
   * after GC of the same child moved by 7 MiB from run to run and read up to 7 MiB above the live
   * objects the class histogram counts. With 0 every dead object is collected and the two agree. A
   * child that reports heap after GC runs with it.
   */
  static final String EXACT_FULL_GC = "-XX:MarkSweepDeadRatio=0";

  static long bytes() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(100);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** The value of a {@code heap-used=} line in a child's output. */
  static long parse(String stdout) {
    for (String line : stdout.split("\n")) {
      int at = line.indexOf("heap-used=");
      if (at >= 0) {
        return Long.parseLong(line.substring(at + 10).strip());
      }
    }
    throw new IllegalStateException("no heap-used line in:\n" + stdout);
  }
}
