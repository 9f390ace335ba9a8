package io.faultline.it.bench;

import java.lang.management.ManagementFactory;

/** Heap in use after full collections, as {@code MemoryMXBean} reports it. */
final class HeapAfterGc {

  private HeapAfterGc() {}

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
