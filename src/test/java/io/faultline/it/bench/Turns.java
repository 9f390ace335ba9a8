package io.faultline.it.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

/**
 * A benchmark child's measured window, in one go or in turns that {@link TakingTurns} hands out:
 * the child says {@link #READY} once warm, then measures a share of its records each time it reads
 * {@link #GO} on standard input and says {@link #DONE} after it. Elapsed time, process CPU and JIT
 * CPU are summed over its own turns only: a child waiting for its turn is not measured.
 */
final class Turns {

  static final String READY = "turns: ready";
  static final String GO = "turns: go";
  static final String DONE = "turns: done";
  static final String MARK = "turns: mark ";

  private final int count;
  private final BufferedReader commands; // null: one go, nobody to take turns with
  private long elapsed;
  private long cpu;
  private long jit;
  private long startNanos;
  private ThreadCpuSnapshot cpuStart;
  private boolean open;
  private long lastRehearsal = System.nanoTime();
  private long rehearsed;

  private Turns(int count, BufferedReader commands) {
    this.count = count;
    this.commands = commands;
  }

  /** {@code count} turns handed out on standard input; 0: the whole window in one go. */
  static Turns of(int count) {
    if (count < 0) {
      throw new IllegalArgumentException("turns = " + count + "; use 0 (one go) or more");
    }
    return count == 0
        ? new Turns(1, null)
        : new Turns(
            count, new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
  }

  /** How many turns the window has. */
  int count() {
    return count;
  }

  /** Whether the child waits for its turns (false: one go, at once). */
  boolean waits() {
    return commands != null;
  }

  /** The first of {@code total} measured records turn {@code turn} takes. */
  long firstOf(int turn, long total) {
    return total * turn / count;
  }

  /** How often {@link #rehearse} takes a turn's snapshots. */
  static final long REHEARSE_EVERY_NANOS = 50_000_000L;

  /**
   * Called between the warm-up's steps: every 50 ms it takes the snapshots a turn's start and end
   * take, so that their code is compiled before the first measured turn. Taken cold at a turn's
   * start, they were compiled inside the turn, beside the client's polls; taken every quarter
   * second, the JDK's file reads under them still reached C2 inside a turn now and then.
   */
  void rehearse() {
    long now = System.nanoTime();
    if (now - lastRehearsal < REHEARSE_EVERY_NANOS) {
      return;
    }
    lastRehearsal = now;
    ThreadCpuSnapshot start = ThreadCpuSnapshot.take();
    ThreadCpuSnapshot end = ThreadCpuSnapshot.take();
    rehearsed += end.cpuSince(start) + end.jitSince(start);
  }

  /** The CPU the rehearsals read, ns: printed, so that the JIT cannot drop their work. */
  long rehearsedNanos() {
    return rehearsed;
  }

  /** Says the warm-up is over; the coordinator then hands out the turns. */
  void ready() {
    if (commands != null) {
      say(READY);
    }
  }

  /** Waits for this turn (at once in one go). Call {@link #start} when its measurement begins. */
  void await() {
    if (commands == null) {
      return;
    }
    try {
      String line = commands.readLine();
      if (!GO.equals(line)) {
        throw new IllegalStateException("expected '" + GO + "' on standard input, read " + line);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The turn's measurement begins, its clock at {@code nanos} ({@link System#nanoTime}). */
  void start(long nanos) {
    mark("start");
    startNanos = nanos;
    cpuStart = ThreadCpuSnapshot.take();
    open = true;
  }

  /** The turn's measurement ends (a turn never started adds nothing); the next child's goes on. */
  void end() {
    if (open) {
      elapsed += System.nanoTime() - startNanos;
      ThreadCpuSnapshot now = ThreadCpuSnapshot.take();
      cpu += now.cpuSince(cpuStart);
      jit += now.jitSince(cpuStart);
      open = false;
      mark("end");
    }
    if (commands != null) {
      say(DONE);
    }
  }

  /** The turns' elapsed time, ns. */
  long elapsedNanos() {
    return elapsed;
  }

  /** The process's CPU time in the turns, ns. */
  long cpuNanos() {
    return cpu;
  }

  /** The JIT compiler threads' CPU time in the turns, ns. */
  long jitNanos() {
    return jit;
  }

  /**
   * With {@code -Dbench.turn-marks=true}: a line with the JVM's uptime in ms, on the clock of
   * {@code -XX:+PrintCompilation}'s first column, and its pid (the {@code %p} of a {@code
   * -XX:LogFile}), to tell what compiled inside the turns.
   */
  private static void mark(String what) {
    if (Boolean.getBoolean("bench.turn-marks")) {
      say(
          MARK
              + what
              + " "
              + ManagementFactory.getRuntimeMXBean().getUptime()
              + " pid "
              + ProcessHandle.current().pid());
    }
  }

  private static void say(String line) {
    System.out.println(line);
    System.out.flush();
  }
}
