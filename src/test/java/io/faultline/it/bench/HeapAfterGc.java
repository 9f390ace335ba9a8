package io.faultline.it.bench;

import com.sun.management.GarbageCollectorMXBean;
import com.sun.management.GcInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** Heap in use after a full collection: what the collection itself left in the heap's pools. */
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

  /** {@link #bytes(Runnable)} with nothing in between. */
  static long bytes() throws InterruptedException {
    return bytes(() -> {});
  }

  /**
   * Collects three times, a pause between (so references cleared by one collection are released by
   * the next), runs {@code afterLastCollection}, then reads what the last collection left, from the
   * collector's record of it. The heap's usage read after the collection also counts whatever other
   * threads allocated since: once about 8 MiB in the 100 ms before the reading, in the children
   * with the agent only, 8 MiB above the live objects the class histogram counted. The pools'
   * collection usage is no better on JDK 20 and later, where G1's concurrent cycle updates it too.
   */
  static long bytes(Runnable afterLastCollection) throws InterruptedException {
    for (int i = 0; i < 2; i++) {
      System.gc();
      Thread.sleep(100);
    }
    List<GarbageCollectorMXBean> collectors =
        ManagementFactory.getPlatformMXBeans(GarbageCollectorMXBean.class);
    long[] before = collectors.stream().mapToLong(c -> c.getCollectionCount()).toArray();
    System.gc();
    GcInfo last = null;
    for (int i = 0; i < before.length; i++) {
      GcInfo info = collectors.get(i).getLastGcInfo();
      if (collectors.get(i).getCollectionCount() > before[i]
          && info != null
          && (last == null || info.getEndTime() > last.getEndTime())) {
        last = info;
      }
    }
    if (last == null) {
      throw new IllegalStateException(
          "System.gc() collected nothing: remove -XX:+DisableExplicitGC from the child's options");
    }
    afterLastCollection.run();
    return heapAfter(last);
  }

  private static long heapAfter(GcInfo collection) {
    Set<String> heapPools =
        ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP)
            .map(MemoryPoolMXBean::getName)
            .collect(Collectors.toSet());
    long used = 0;
    for (Map.Entry<String, MemoryUsage> pool : collection.getMemoryUsageAfterGc().entrySet()) {
      if (heapPools.contains(pool.getKey())) {
        used += pool.getValue().getUsed();
      }
    }
    return used;
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
