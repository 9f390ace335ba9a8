package io.faultline.agent.kafka;

import io.faultline.core.net.TcpInfoReader;
import io.faultline.kafka.phase.ConnectionPhaseTracker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Watches, while a send is outstanding, when the broker's TCP acknowledges the bytes a client
 * handed to its socket: one daemon thread reads {@code tcpi_bytes_acked} of the connections that
 * wait for delivery about every {@value #PERIOD_MICROS} µs and records each change with its time in
 * the connection's {@link Probe}, and the latest look that found none (a request it found
 * unacknowledged was delivered after it). A connection is read only once its oldest unacknowledged
 * send is due ({@link #watch}: {@code kafka.phases.delivery-after} after it completed): on a
 * healthy connection the response comes first and the probe is stopped before the thread ever reads
 * it. A probe is in the thread's set from its connection's opening to its close ({@link #enlist},
 * {@link #forget}), so what the client's thread does at a request never depends on the sampler's
 * state: when it did (the probe was taken out after a quiet second and put back at the next send),
 * the branch that puts it back first ran after a pause, where the JIT had compiled the client's I/O
 * path without it, and that whole compilation was dropped and redone. The client's own I/O thread
 * drains the probe into its phase tracker at its next event, so the tracker stays on that thread as
 * kafka-guard requires. With no connection the thread is parked and costs nothing; while requests
 * come and go it looks in at the {@link LookInPace}, slower while every request is answered in
 * time, and once a second after a second with no send waiting; under sustained slow traffic its
 * {@link WakeBudget} bounds how often it wakes ({@code kafka.phases.delivery-wakes-per-second}).
 *
 * <p>A client whose {@code Selector.poll} is woven looks in itself: its thread's poll ends when the
 * first waiting send becomes due ({@link Probe#firstLookDue}) and, if that send is still
 * unanswered, wakes the sampler ({@link #nudge}). The sampler's own quiet look-ins then only cover
 * a client thread that stopped polling, once a second instead of twenty times: on a virtual machine
 * a timed wake costs tens of microseconds however little it does. The full pace holds only while a
 * look finds the due send's bytes unacknowledged (a send whose bytes TCP delivered waits for the
 * broker, not for delivery); while later sends' bytes are unacknowledged the sampler looks again
 * after one period of the full pace, until the client's thread takes the acknowledgement and times
 * the next send.
 */
final class DeliverySampler {

  static final long PERIOD_MICROS = 500;
  // 50 wakes at the full period: 25 ms of full resolution before the sustained rate applies.
  private static final int BURST_WAKES = 50;
  private static final int CAPACITY = 64;
  // A connection's probe starts small and doubles when acknowledgements pile up between drains:
  // an agent has a probe per broker connection, thousands of them, most drained after one or two.
  private static final int INITIAL_CAPACITY = 4;

  /** One connection's socket and the acknowledgement changes seen since the last drain. */
  static final class Probe {
    private final int fd;
    // The connection's count of bytes written, for reading SIOCOUTQ instead of TCP_INFO; null
    // when the probe has none (TCP_INFO's bytes_acked then).
    private final ConnectionPhaseTracker wire;
    // Whether the count has every byte of the connection from its first, so TCP_INFO's total
    // acknowledged matches it too; else only SIOCOUTQ places a request (see acknowledged).
    private final boolean countedFromStart;
    // The highest acknowledged offset a SIOCOUTQ read gave; the sampler's alone.
    private long highestAcked;
    private long[] acked = new long[INITIAL_CAPACITY];
    private long[] at = new long[INITIAL_CAPACITY];
    private int count;
    // Whether count > 0, readable without the lock: the client's thread drains at each of a
    // request's events, and most find nothing recorded since the last.
    private volatile boolean pending;
    private long lastAcked = -1;
    // The latest look that found lastAcked unchanged since the last change recorded, or NOT_STILL.
    private long stillAt = NOT_STILL;
    // When the sampler should first read it, or NOTHING_DUE while no send waits: set by the
    // client's thread, read by the sampler.
    private volatile long dueAt = NOTHING_DUE;
    private volatile boolean failed;
    // Stream offsets (tcpi_bytes_acked's units) at the end of the send that is due and of the last
    // completed send. MAX_VALUE when the watcher did not say: always in flight. Written (opaque)
    // just before dueAt, read after it, so dueAt's volatile write publishes them: two fewer fences
    // at each of a request's events on the client's thread.
    private long dueEnd = Long.MAX_VALUE;
    private long sentEnd = Long.MAX_VALUE;
    // Whether the connection's client thread looks in itself (its Selector.poll is woven).
    private volatile boolean clientLooksIn;
    // The due time this connection's client thread already woke the sampler for; that thread's
    // alone.
    private long askedFor = NOTHING_DUE;

    Probe(int fd) {
      this(fd, null, true);
    }

    /**
     * A probe of socket {@code fd}, whose bytes written so far {@code wire} counts (on the client's
     * thread, with every write): from the connection's first byte ({@code countedFromStart}), or
     * from a later one, every byte before it uncounted (a SASL exchange, or a connection adopted
     * after it opened).
     */
    Probe(int fd, ConnectionPhaseTracker wire, boolean countedFromStart) {
      this.fd = fd;
      this.wire = wire;
      this.countedFromStart = countedFromStart;
    }

    /** Whether TCP_INFO could not be read on this socket (delivery is then merged). */
    boolean failed() {
      return failed;
    }

    /**
     * When the client's thread should end its poll to look at this connection ({@link
     * System#nanoTime()}), or {@link Long#MAX_VALUE} when it need not: no send waits, or the
     * sampler was already woken for this one. Client thread.
     */
    long firstLookDue() {
      long due = dueAt;
      return due == NOTHING_DUE || due == askedFor ? Long.MAX_VALUE : due;
    }

    /**
     * Whether this connection's waiting send became due by {@code nowNanos} and nobody woke the
     * sampler for it yet; it counts as woken from now on. Also marks the probe as one whose client
     * looks in. Client thread.
     */
    boolean takeFirstLook(long nowNanos) {
      if (!clientLooksIn) {
        clientLooksIn = true;
      }
      long due = dueAt;
      if (due == NOTHING_DUE || due == askedFor || due - nowNanos > 0) {
        return false;
      }
      askedFor = due;
      return true;
    }

    synchronized void record(long bytesAcked, long nanos) {
      if (bytesAcked == lastAcked) {
        // No change, but a later bound: a request still unacknowledged now was delivered after.
        stillAt = nanos;
        pending = true;
        return;
      }
      stillAt = NOT_STILL;
      lastAcked = bytesAcked;
      if (count == acked.length) {
        if (count < CAPACITY) {
          acked = java.util.Arrays.copyOf(acked, count * 2);
          at = java.util.Arrays.copyOf(at, count * 2);
        } else {
          // Keep the newest: a later acknowledgement covers every earlier request as well.
          System.arraycopy(acked, 1, acked, 0, CAPACITY - 1);
          System.arraycopy(at, 1, at, 0, CAPACITY - 1);
          count--;
        }
      }
      acked[count] = bytesAcked;
      at[count] = nanos;
      count++;
      pending = true;
    }

    /**
     * Whether looks were recorded since the last drain. Without the lock: a look recorded just
     * after a false answer is drained at the next event, with the time it was made.
     */
    boolean hasLooks() {
      return pending;
    }

    /**
     * Hands the recorded changes, oldest first, then the latest look that found no change since, to
     * {@code sink} and forgets them.
     */
    synchronized void drain(Sink sink) {
      for (int i = 0; i < count; i++) {
        sink.sample(acked[i], at[i]);
      }
      if (stillAt != NOT_STILL) {
        sink.sample(lastAcked, stillAt);
        stillAt = NOT_STILL;
      }
      count = 0;
      pending = false;
    }
  }

  /** Receives drained samples. */
  interface Sink {
    void sample(long bytesAcked, long nanos);
  }

  private static final VarHandle DUE_END;
  private static final VarHandle SENT_END;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      DUE_END = lookup.findVarHandle(Probe.class, "dueEnd", long.class);
      SENT_END = lookup.findVarHandle(Probe.class, "sentEnd", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** A probe's {@code dueAt} while no send of its connection waits for delivery. */
  private static final long NOTHING_DUE = Long.MIN_VALUE;

  private static final long NOT_STILL = Long.MIN_VALUE;

  /** {@link #lookIn}'s answer when the set has no probe: park until one is enlisted. */
  private static final long PARK_UNTIL_ENLISTED = Long.MIN_VALUE;

  /**
   * How long the thread keeps its quiet pace after the last send it saw waiting; then it looks in
   * every {@link #IDLE_LOOK_NANOS}. A client that looks in itself wakes it sooner ({@link #nudge}).
   */
  static final long KEEP_LOOKING_NANOS = 1_000_000_000L;

  /**
   * How often the thread looks in while connections are open and none has had a send waiting for
   * {@link #KEEP_LOOKING_NANOS}: once a second, for a client thread that stopped polling.
   */
  static final long IDLE_LOOK_NANOS = 1_000_000_000L;

  private final TcpInfoReader reader;
  private final Set<Probe> waiting = ConcurrentHashMap.newKeySet();
  private final int wakesPerSecond;
  private final long deliveryAfterNanos;
  private volatile Thread thread;
  private volatile long wakes;

  /**
   * The thread sleeps at a quiet pace: only then does a client's {@link #nudge} wake it (while it
   * follows a slow connection at full pace it looks soon anyway, within its wake budget).
   */
  private volatile boolean quietSleep;

  /** When a probe last had a send waiting; the sampler thread's alone. */
  private long lastProbeSeen;

  /** Whether the sleep the last look chose is a quiet pace; the sampler thread's alone. */
  private boolean quietPace;

  /**
   * Whether the reader answers {@code SIOCOUTQ}, asked at the first sample (asking loads the native
   * route, which the agent's start should not pay for): null until then; the sampler thread's
   * alone.
   */
  private Boolean readsUnacknowledged;

  /**
   * The thread is parked with no deadline (its set is empty). Only then does a new probe wake it
   * ({@link #enlist}, when a connection opens); a send never does.
   */
  private volatile boolean idle;

  /**
   * @param reader reads TCP_INFO
   * @param wakesPerSecond the sustained number of wakes a second (see {@link WakeBudget})
   * @param deliveryAfterNanos the probes' delay, {@code kafka.phases.delivery-after}: how often it
   *     looks for new probes while some are slow (see {@link LookInPace})
   */
  DeliverySampler(TcpInfoReader reader, int wakesPerSecond, long deliveryAfterNanos) {
    this.reader = reader;
    this.wakesPerSecond = wakesPerSecond;
    this.deliveryAfterNanos = deliveryAfterNanos;
  }

  /**
   * Puts {@code probe} in the thread's set, until {@link #forget}: its connection opened. Nothing
   * is read until it is {@link #watch watched}. Client thread.
   */
  void enlist(Probe probe) {
    if (probe.failed || !waiting.add(probe)) {
      return;
    }
    Thread t = thread;
    if (t == null) {
      t = startThread();
    }
    if (idle) {
      LockSupport.unpark(t);
    }
  }

  /**
   * Samples {@code probe}, {@link #enlist enlisted}, from {@code dueAt} ({@link System#nanoTime()})
   * until {@link #stop} for it; called on the client's thread, again whenever the oldest send it
   * waits for changes. Three writes and no branch: the same work at every request, however long the
   * connection was quiet.
   */
  void watch(Probe probe, long dueAt) {
    watch(probe, dueAt, Long.MAX_VALUE, Long.MAX_VALUE);
  }

  /**
   * {@link #watch(Probe, long)}, with the stream offsets at the end of the send that becomes due
   * and of the connection's last completed send: a look that finds TCP acknowledged up to the first
   * does not hold the full pace, and up to the second does not look again.
   */
  void watch(Probe probe, long dueAt, long dueEnd, long sentEnd) {
    DUE_END.setOpaque(probe, dueEnd);
    SENT_END.setOpaque(probe, sentEnd);
    probe.dueAt = dueAt;
  }

  /**
   * A client's thread found one of its sends due and unanswered ({@link Probe#takeFirstLook}): the
   * thread looks now if it sleeps at a quiet pace.
   */
  void nudge() {
    Thread t = thread;
    if (t != null && quietSleep) {
      quietSleep = false;
      LockSupport.unpark(t);
    }
  }

  /** Whether the thread sleeps at a quiet pace (a client's thread then makes the first look). */
  boolean sleepsQuietly() {
    return quietSleep;
  }

  /** How many times the thread has woken (and looked) so far. */
  long wakes() {
    return wakes;
  }

  /**
   * Stops sampling {@code probe} until it is watched again: its connection has no send waiting.
   * Called on the client's thread, like {@link #watch}.
   */
  void stop(Probe probe) {
    // Most calls find it stopped already (a pipelined request's events): reading is the cheaper.
    if (probe.dueAt != NOTHING_DUE) {
      probe.dueAt = NOTHING_DUE;
    }
  }

  /** Takes {@code probe} out of the set: its connection closed. */
  void forget(Probe probe) {
    probe.dueAt = NOTHING_DUE;
    waiting.remove(probe);
  }

  /** How many probes are in the sampler's set, with a send waiting or not. */
  int probesInSet() {
    return waiting.size();
  }

  private synchronized Thread startThread() {
    if (thread == null) {
      Thread t = new Thread(this::run, "faultline-kafka-delivery");
      t.setDaemon(true);
      thread = t;
      t.start();
    }
    return thread;
  }

  private void run() {
    WakeBudget budget =
        new WakeBudget(PERIOD_MICROS * 1000, wakesPerSecond, BURST_WAKES, System.nanoTime());
    LookInPace pace = new LookInPace(deliveryAfterNanos);
    lastProbeSeen = System.nanoTime();
    while (true) {
      wakes++; // this thread alone writes it
      try {
        long sleep = lookIn(budget, pace);
        if (sleep != PARK_UNTIL_ENLISTED) {
          quietSleep = quietPace;
          LockSupport.parkNanos(sleep);
          quietSleep = false;
          continue;
        }
        idle = true;
        // Checked again after announcing idleness: a probe added in between either sees idle and
        // unparks (the permit makes park return at once) or is seen here.
        if (waiting.isEmpty()) {
          LockSupport.park(this);
        }
        idle = false;
      } catch (Throwable e) {
        // Never let the sampler die silently on a surprise; the probes that fail are marked.
        LockSupport.parkNanos(1_000_000L);
      }
    }
  }

  /**
   * One wake: reads the probes that are due and returns how long to sleep, or {@link
   * #PARK_UNTIL_ENLISTED}. A method of its own, not the body of {@link #run}'s loop: at 20 wakes a
   * second that loop never reaches the JIT's thresholds for compiling a running loop, so it ran
   * interpreted for the life of the process; a method called at every wake is compiled after a few
   * hundred.
   */
  private long lookIn(WakeBudget budget, LookInPace pace) {
    long now = System.nanoTime();
    long untilDue = Long.MAX_VALUE;
    boolean inFlight = false;
    boolean laterInFlight = false;
    boolean anyWaiting = false;
    boolean clientsLookIn = true;
    for (Probe probe : waiting) {
      clientsLookIn &= probe.clientLooksIn;
      long due = probe.dueAt;
      if (due == NOTHING_DUE) {
        continue;
      }
      anyWaiting = true;
      long wait = due - now;
      if (wait <= 0) {
        int state = sample(probe);
        inFlight |= state == DUE_IN_FLIGHT;
        laterInFlight |= state == LATER_IN_FLIGHT;
      } else if (wait < untilDue) {
        untilDue = wait;
      }
    }
    quietPace = !pace.fast(now, clientsLookIn);
    if (!anyWaiting) {
      if (now - lastProbeSeen < KEEP_LOOKING_NANOS) {
        return pace.lookNanos(now, clientsLookIn);
      }
      // Quiet, so a client's nudge wakes it at its next due send.
      quietPace = true;
      return waiting.isEmpty() ? PARK_UNTIL_ENLISTED : IDLE_LOOK_NANOS;
    }
    lastProbeSeen = now;
    if (inFlight || laterInFlight) {
      quietPace = false; // following bytes on their way: it looks again soon anyway
    }
    if (inFlight) {
      pace.dueFound(now);
      return budget.sleepAfterWake(System.nanoTime());
    }
    if (laterInFlight) {
      return Math.min(untilDue, pace.fastNanos());
    }
    // Nothing due yet, or what was due is delivered and waits for the broker: a probe watched
    // meanwhile needs no wake-up of its own.
    return pace.sleepNanos(now, untilDue, clientsLookIn);
  }

  private static final int ALL_ACKNOWLEDGED = 0;
  private static final int LATER_IN_FLIGHT = 1;
  private static final int DUE_IN_FLIGHT = 2;

  /**
   * Reads {@code probe}: {@link #DUE_IN_FLIGHT} while the due send's bytes are unacknowledged,
   * {@link #LATER_IN_FLIGHT} while only later sends' are, else (or when unreadable) {@link
   * #ALL_ACKNOWLEDGED}.
   */
  private int sample(Probe probe) {
    long acked = acknowledged(probe);
    long now = System.nanoTime();
    if (acked < 0) {
      probe.failed = true;
      waiting.remove(probe);
      return ALL_ACKNOWLEDGED;
    }
    probe.record(acked, now);
    if (acked < (long) DUE_END.getOpaque(probe)) {
      return DUE_IN_FLIGHT;
    }
    return acked < (long) SENT_END.getOpaque(probe) ? LATER_IN_FLIGHT : ALL_ACKNOWLEDGED;
  }

  /**
   * How far {@code probe}'s peer has acknowledged, in the units of its count of bytes written, or
   * -1 when the socket cannot be read this way. Where the reader answers {@code SIOCOUTQ} and the
   * probe has a count of the bytes written, that count less the bytes unacknowledged: half the
   * kernel's work of TCP_INFO. The count is read first, so a write between the two reads makes the
   * answer lower than the truth, never higher: such a look finds the send still on its way, and a
   * later one places it. Bytes the count missed before its first are acknowledged before any it
   * has, so the answer is right for a count that started late too. TCP_INFO's {@code
   * tcpi_bytes_acked} counts from the connection's first byte: only a count from the same start
   * matches it.
   */
  private long acknowledged(Probe probe) {
    ConnectionPhaseTracker wire = probe.wire;
    if (wire == null || !readsUnacknowledged()) {
      return probe.countedFromStart ? reader.bytesAcked(probe.fd) : -1;
    }
    long written = wire.wireOffset();
    long unacknowledged = reader.unacknowledgedBytes(probe.fd);
    if (unacknowledged < 0) {
      return -1;
    }
    long acked = Math.max(written - unacknowledged, probe.highestAcked);
    probe.highestAcked = acked;
    return acked;
  }

  private boolean readsUnacknowledged() {
    Boolean reads = readsUnacknowledged;
    if (reads == null) {
      reads = reader.readsUnacknowledgedBytes();
      readsUnacknowledged = reads;
    }
    return reads;
  }
}
