package io.faultline.jooq.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A fixed set of counters that each thread increments in a slot of its own; a read sums the slots.
 * A {@code LongAdder} has about as many cells as cores, each shared by the threads that hash to it,
 * so on a busy pool nearly every increment takes its cache line from the other core; a slot of its
 * own costs a thread none of that, and the work moves to the read (a scrape). The slots of threads
 * that ended are folded into one total when counters are read or a slot is wanted, so a service
 * that starts threads freely keeps no more slots than it has live threads that counted; past {@link
 * #MAX_SLOTS} live ones (a thread per task, virtual threads) the others share one slot, counted
 * atomically.
 *
 * <p>A caller that counts several times for one unit of work (a transaction) may keep the calling
 * thread's {@link #slot()} with that work and count into it ({@link #increment(Slot, int)}) while
 * {@link #isCallers} says it is still the calling thread's: each lookup of the thread's slot, after
 * a database round trip, missed the caches.
 */
public final class ThreadCounts {

  /** Live threads with a slot of their own, at most; the threads beyond share one. */
  static final int MAX_SLOTS = 256;

  private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(long[].class);

  /** One thread's counts, written by that thread only and read by any; or the shared slot. */
  public static final class Slot {
    private final ThreadCounts of;
    private final WeakReference<Thread> owner;
    private final long[] counts;

    private Slot(ThreadCounts of, int counters, Thread owner) {
      this.of = of;
      this.counts = new long[counters];
      this.owner = owner == null ? null : new WeakReference<>(owner);
    }

    boolean shared() {
      return owner == null;
    }

    boolean ownerEnded() {
      Thread t = owner.get();
      return t == null || !t.isAlive();
    }
  }

  private final int counters;
  private final long[] ended;
  private final Slot shared;
  private final List<Slot> slots = new ArrayList<>();
  private final ThreadLocal<Slot> mine = ThreadLocal.withInitial(this::newSlot);

  /** {@code counters} counters, numbered from 0. */
  public ThreadCounts(int counters) {
    if (counters < 1) {
      throw new IllegalArgumentException("counters must be at least 1, was " + counters);
    }
    this.counters = counters;
    this.ended = new long[counters];
    this.shared = new Slot(this, counters, null);
  }

  private Slot newSlot() {
    synchronized (slots) {
      if (slots.size() >= MAX_SLOTS) {
        foldEnded();
        if (slots.size() >= MAX_SLOTS) {
          return shared;
        }
      }
      Slot slot = new Slot(this, counters, Thread.currentThread());
      slots.add(slot);
      return slot;
    }
  }

  /** Adds one to {@code counter} for the calling thread. */
  public void increment(int counter) {
    increment(mine.get(), counter);
  }

  /** The calling thread's slot (or the shared one), for {@link #increment(Slot, int)}. */
  public Slot slot() {
    return mine.get();
  }

  /**
   * Whether {@code slot} is the calling thread's own in these counts, so counting into it is
   * counting for this thread; false for null and for the shared slot (asked for anew each time).
   */
  public boolean isCallers(Slot slot) {
    return slot != null
        && slot.of == this
        && slot.owner != null
        && slot.owner.get() == Thread.currentThread();
  }

  /**
   * Adds one to {@code counter} in {@code slot}, which must be the calling thread's {@link #slot()}
   * of these counts.
   */
  public void increment(Slot slot, int counter) {
    long[] counts = slot.counts;
    if (slot.shared()) {
      COUNT.getAndAdd(counts, counter, 1L);
    } else {
      // Only this thread writes its slot: a plain read, and an opaque write readers see whole.
      COUNT.setOpaque(counts, counter, counts[counter] + 1);
    }
  }

  /** The sum of {@code counter} over every thread that counted, ended ones included. */
  public long sum(int counter) {
    long[] sum = new long[1];
    sums(counter, sum);
    return sum[0];
  }

  /**
   * The sums of counters {@code from} to {@code from + into.length - 1} into {@code into}, read
   * under one lock: each as {@link #sum} would answer.
   */
  public void sums(int from, long[] into) {
    if (from < 0 || from + into.length > counters) {
      throw new IndexOutOfBoundsException(
          "counters " + from + ".." + (from + into.length - 1) + " of " + counters);
    }
    synchronized (slots) {
      foldEnded();
      for (int i = 0; i < into.length; i++) {
        into[i] = ended[from + i] + (long) COUNT.getVolatile(shared.counts, from + i);
      }
      for (Slot slot : slots) {
        for (int i = 0; i < into.length; i++) {
          into[i] += (long) COUNT.getOpaque(slot.counts, from + i);
        }
      }
    }
  }

  /** Folds the slots of threads that ended into {@link #ended}; under the lock. */
  private void foldEnded() {
    for (Iterator<Slot> it = slots.iterator(); it.hasNext(); ) {
      Slot slot = it.next();
      if (slot.ownerEnded()) {
        // A thread's end happens-before isAlive() reads false: its last counts are all here.
        for (int c = 0; c < counters; c++) {
          ended[c] += slot.counts[c];
        }
        it.remove();
      }
    }
  }

  /** Slots kept for live threads (for tests). */
  int slots() {
    synchronized (slots) {
      return slots.size();
    }
  }
}
