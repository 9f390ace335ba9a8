package io.faultline.examples.demo;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * The demo's output: headings, indented lines, and progress for long steps — a line redrawn in
 * place on a terminal, a dot every few seconds otherwise (so a log or a test stays readable).
 */
final class Console {

  private final PrintStream out;
  private final boolean terminal;

  Console(PrintStream out, boolean terminal) {
    this.out = out;
    this.terminal = terminal;
  }

  boolean isTerminal() {
    return terminal;
  }

  void heading(String text) {
    out.println();
    out.println(bold("== " + text));
    out.flush();
  }

  void line(String text) {
    out.println("   " + text);
    out.flush();
  }

  void raw(String text) {
    out.println(text);
    out.flush();
  }

  private String bold(String text) {
    return terminal ? "\u001b[1m" + text + "\u001b[0m" : text;
  }

  /** Starts showing progress of a step expected to take about {@code expected}. */
  Progress progress(String label, Duration expected) {
    return new Progress(label, expected);
  }

  /** A long step under way; close it when the step is over. */
  final class Progress implements AutoCloseable {
    private final String label;
    private final Duration expected;
    private final long start = System.nanoTime();
    private long lastDot = start;
    private boolean closed;

    private Progress(String label, Duration expected) {
      this.label = label;
      this.expected = expected;
      if (!terminal) {
        out.print("   " + label + " ");
        out.flush();
      }
      tick();
    }

    /** Elapsed time of the step. */
    Duration elapsed() {
      return Duration.ofNanos(System.nanoTime() - start);
    }

    /** Redraws the progress; call it while waiting (every 100–500 ms). */
    void tick() {
      tick("");
    }

    /** Redraws the progress with a short status. */
    synchronized void tick(String status) {
      if (closed) {
        return;
      }
      long now = System.nanoTime();
      if (terminal) {
        double seconds = (now - start) / 1e9;
        String bar = bar(seconds / Math.max(1, expected.toSeconds()));
        out.printf(Locale.ROOT, "\r   %s %s %4.1fs %s\u001b[K", label, bar, seconds, status);
        out.flush();
      } else if (now - lastDot >= 3_000_000_000L) {
        out.print(".");
        out.flush();
        lastDot = now;
      }
    }

    private String bar(double fraction) {
      int width = 20;
      int filled = (int) Math.min(width - 1, Math.round(fraction * width));
      return "[" + "#".repeat(filled) + " ".repeat(width - filled) + "]";
    }

    @Override
    public synchronized void close() {
      if (closed) {
        return;
      }
      closed = true;
      double seconds = elapsed().toMillis() / 1000.0;
      if (terminal) {
        out.printf(Locale.ROOT, "\r   %s done in %.1fs\u001b[K%n", label, seconds);
      } else {
        out.printf(Locale.ROOT, " done in %.1fs%n", seconds);
      }
      out.flush();
    }
  }
}
