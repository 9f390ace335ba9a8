package io.faultline.core.finding;

import io.faultline.core.Jfr;
import io.faultline.core.LogText;
import io.faultline.core.Loggers;
import io.faultline.core.config.CoreConfigKeys;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.observe.Observations;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The registry of active findings: what Faultline currently has to say.
 *
 * <p>A finding is identified by its id and subject. {@link #raise} makes it active, or updates the
 * active one (severity, message, evidence); it counts as raised only when it becomes active. {@link
 * #clear} ends it. Checks that re-evaluate everything each round use {@link #replaceAll}: whatever
 * that source reported before and no longer reports is cleared.
 *
 * <p>Logging is rate-limited so a finding reported on every request cannot flood the log: a finding
 * is logged when it becomes active, at once when its severity rises above what was last logged,
 * again at most once per {@code findings.log-interval} while it stays active at {@code WARNING} or
 * above and keeps being reported (an {@code INFO} finding is not repeated), and once when it
 * clears.
 *
 * <p>Every {@link #raise} is also handed to {@link io.faultline.core.observe.Observations} (each
 * report, not only each change), where a test extension may listen.
 *
 * <p>Thread-safe: advice threads may raise concurrently. Nothing here throws into the caller; an
 * internal failure is logged and counted in {@link #internalErrors()}. Listeners are called in
 * order, under the registry's lock, on the thread that made the change: they must be quick and must
 * not wait for other threads.
 */
public final class Findings {

  private static final Comparator<Finding> MOST_SEVERE_FIRST =
      Comparator.comparing(Finding::severity)
          .reversed()
          .thenComparing(Finding::id)
          .thenComparing(Finding::subject);

  private final Duration logInterval;
  private final Clock clock;
  private final System.Logger log;
  private final Object lock = new Object();
  private final Map<Key, Active> active = new HashMap<>();
  private final Map<String, Long> raised = new HashMap<>();
  // How many active findings each replaceAll source owns: a round that reports what it reported
  // before (a healthy connection's: nothing) then clears nothing and skips the scan of every active
  // finding, which beside a fleet-wide fault (one finding per connection) made each connection's
  // round cost the whole registry.
  private final Map<String, Integer> ownedBySource = new HashMap<>();
  private final List<Consumer<FindingEvent>> listeners = new CopyOnWriteArrayList<>();
  private final AtomicLong internalErrors = new AtomicLong();
  // Flight Recorder runs its hooks holding its own locks, so the hook takes none of ours: it reads
  // recordedActive, rebuilt under the lock at each change while keepRecordedActive is set.
  private final Object hookLock = new Object();
  private Runnable activeHook;
  private volatile boolean keepRecordedActive;
  private volatile List<Since> recordedActive = List.of();

  /**
   * A registry that re-logs active findings every {@code logInterval}, reads time from {@code
   * clock} and logs to {@code log}.
   */
  public Findings(Duration logInterval, Clock clock, System.Logger log) {
    this.logInterval = Objects.requireNonNull(logInterval, "logInterval");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.log = Objects.requireNonNull(log, "log");
  }

  /** A registry configured by {@code findings.log-interval}, on the system clock. */
  public Findings(FaultlineConfig config) {
    this(
        config.get(CoreConfigKeys.FINDINGS_LOG_INTERVAL),
        Clock.systemUTC(),
        Loggers.get(Findings.class.getName()));
  }

  /** Reports {@code finding}: makes it active, or updates the active one of its id and subject. */
  public void raise(Finding finding) {
    guarded(
        () -> {
          synchronized (lock) {
            raiseLocked(Objects.requireNonNull(finding, "finding"), null);
          }
          // Outside the lock, and every time: a test tool wants each report, not each change.
          Observations.finding(finding);
        });
  }

  /** Ends the active finding of {@code id} about {@code subject}; false when none was active. */
  public boolean clear(String id, String subject) {
    boolean[] cleared = {false};
    guarded(
        () -> {
          synchronized (lock) {
            cleared[0] = clearLocked(new Key(id, subject));
          }
        });
    return cleared[0];
  }

  /**
   * Reports everything {@code source} finds this round: raises each of {@code current}, and clears
   * what {@code source} reported earlier and no longer does. Findings raised with {@link #raise} or
   * by another source are left alone.
   *
   * @param source a stable name of the check, e.g. {@code host.syncookies}
   */
  public void replaceAll(String source, Collection<Finding> current) {
    guarded(
        () -> {
          Objects.requireNonNull(source, "source");
          synchronized (lock) {
            replaceAllLocked(source, current);
          }
          // As raise() does: outside the lock, every report (a source that reports each round
          // reaches a test tool as raise() callers do).
          current.forEach(Observations::finding);
        });
  }

  private void replaceAllLocked(String source, Collection<Finding> current) {
    Set<Key> reported = raiseAllLocked(source, current);
    // Each reported finding is the source's now: when the source owns no more, nothing is gone.
    if (ownedBySource.getOrDefault(source, 0) == reported.size()) {
      return;
    }
    List<Key> gone = new ArrayList<>();
    active.forEach(
        (key, entry) -> {
          if (source.equals(entry.source) && !reported.contains(key)) {
            gone.add(key);
          }
        });
    gone.forEach(this::clearLocked);
  }

  /** Raises each of {@code current} as {@code source}'s; returns their keys. */
  private Set<Key> raiseAllLocked(String source, Collection<Finding> current) {
    if (current.isEmpty()) {
      return Set.of();
    }
    Set<Key> reported = new HashSet<>();
    for (Finding finding : current) {
      raiseLocked(Objects.requireNonNull(finding, "finding"), source);
      reported.add(Key.of(finding));
    }
    return reported;
  }

  /** The active findings, most severe first, then by id and subject. */
  public List<Finding> active() {
    synchronized (lock) {
      List<Finding> snapshot = new ArrayList<>(active.size());
      active.values().forEach(entry -> snapshot.add(entry.finding));
      snapshot.sort(MOST_SEVERE_FIRST);
      return snapshot;
    }
  }

  /** How many findings of {@code id} are active at {@code severity}. */
  public int activeCount(String id, Severity severity) {
    synchronized (lock) {
      int count = 0;
      for (Active entry : active.values()) {
        if (entry.finding.id().equals(id) && entry.finding.severity() == severity) {
          count++;
        }
      }
      return count;
    }
  }

  /** How many times a finding of {@code id} became active since this registry was made. */
  public long raisedCount(String id) {
    synchronized (lock) {
      return raised.getOrDefault(id, 0L);
    }
  }

  /** Calls {@code listener} on every change from now on; see the class comment for the rules. */
  public void addListener(Consumer<FindingEvent> listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** Stops calling {@code listener}. */
  public void removeListener(Consumer<FindingEvent> listener) {
    listeners.remove(listener);
  }

  /**
   * From now on every chunk of every JDK Flight Recorder recording begins and ends with an {@code
   * io.faultline.ActiveFinding} event per active finding, so a recording started after a finding
   * was raised still shows it. Does nothing and returns false while Flight Recorder is not
   * initialized ({@link Jfr#recording()}): registering would set up its machinery in a process that
   * may never record. Calling it again once it returned true does nothing.
   */
  public boolean recordActiveInFlightRecorder() {
    if (!Jfr.recording()) {
      return false;
    }
    synchronized (hookLock) {
      if (activeHook == null) {
        synchronized (lock) {
          keepRecordedActive = true;
          recordedActive = sinceSnapshotLocked();
        }
        try {
          activeHook = ActiveFindingRecording.register(this);
        } catch (RuntimeException | Error e) {
          // Not registered: stop rebuilding the snapshot at every change for a hook that never
          // runs.
          synchronized (lock) {
            keepRecordedActive = false;
            recordedActive = List.of();
          }
          throw e;
        }
      }
    }
    return true;
  }

  /** Undoes {@link #recordActiveInFlightRecorder()}; nothing when it was not done. */
  public void stopRecordingActiveInFlightRecorder() {
    synchronized (hookLock) {
      if (activeHook != null) {
        ActiveFindingRecording.unregister(activeHook);
        activeHook = null;
        keepRecordedActive = false;
        recordedActive = List.of();
      }
    }
  }

  /** Flight Recorder's periodic hook: commits the active findings, taking no lock of ours. */
  void recordActive() {
    guarded(() -> ActiveFindingRecording.commitAll(recordedActive));
  }

  private List<Since> sinceSnapshotLocked() {
    List<Since> snapshot = new ArrayList<>(active.size());
    for (Active entry : active.values()) {
      snapshot.add(new Since(entry.finding, entry.since));
    }
    return List.copyOf(snapshot);
  }

  /** Failures caught inside the registry or its listeners; zero unless there is a bug. */
  public long internalErrors() {
    return internalErrors.get();
  }

  private void raiseLocked(Finding finding, String source) {
    Key key = Key.of(finding);
    Instant now = clock.instant();
    Active entry = active.get(key);
    if (entry == null) {
      entry = new Active(finding, source, now);
      active.put(key, entry);
      own(source, 1);
      raised.merge(finding.id(), 1L, Long::sum);
      log(finding, "faultline: " + describe(finding));
      publish(FindingEvent.Kind.RAISED, finding, now);
      return;
    }
    Finding previous = entry.finding;
    entry.finding = finding;
    if (source != null && !source.equals(entry.source)) {
      own(entry.source, -1);
      own(source, 1);
      entry.source = source;
    }
    if (finding.severity().compareTo(entry.loggedSeverity) > 0) {
      // Worse than what the log last said: an operator must not wait an interval to learn it.
      entry.lastLogged = now;
      entry.loggedSeverity = finding.severity();
      log(
          finding,
          "faultline: now "
              + finding.severity()
              + " (was "
              + previous.severity()
              + ", active since "
              + entry.since
              + "): "
              + describe(finding));
    } else if (finding.severity() != Severity.INFO
        && !Duration.between(entry.lastLogged, now).minus(logInterval).isNegative()) {
      // INFO findings are said once: repeated every interval on every service of a fleet they
      // would bury the warnings.
      entry.lastLogged = now;
      entry.loggedSeverity = finding.severity();
      log(
          finding,
          "faultline: still active since "
              + entry.since
              + " ("
              + Duration.between(entry.since, now).withNanos(0)
              + "): "
              + describe(finding));
    }
    if (previous.severity() != finding.severity()
        || !previous.message().equals(finding.message())
        || !previous.evidence().equals(finding.evidence())) {
      publish(FindingEvent.Kind.UPDATED, finding, now);
    }
  }

  private boolean clearLocked(Key key) {
    Active entry = active.remove(key);
    if (entry == null) {
      return false;
    }
    own(entry.source, -1);
    Instant now = clock.instant();
    log.log(
        Level.INFO,
        LogText.escape(
            "faultline: cleared "
                + entry.finding.id()
                + " about "
                + entry.finding.subject()
                + " after "
                + Duration.between(entry.since, now).withNanos(0)));
    publish(FindingEvent.Kind.CLEARED, entry.finding, now);
    return true;
  }

  /** Counts {@code delta} more active findings of {@code source}; nothing for a plain raise. */
  private void own(String source, int delta) {
    if (source != null) {
      ownedBySource.merge(source, delta, (a, b) -> a + b == 0 ? null : a + b);
    }
  }

  /** A subject or message may hold the application's text (a client id): one line regardless. */
  private void log(Finding finding, String line) {
    log.log(level(finding.severity()), LogText.escape(line));
  }

  private static Level level(Severity severity) {
    return switch (severity) {
      case CRITICAL -> Level.ERROR;
      case WARNING -> Level.WARNING;
      default -> Level.INFO;
    };
  }

  /**
   * {@code [WARNING] ID about subject: message {evidence}. What to do: ... (see docs reference)}.
   */
  private static String describe(Finding finding) {
    return "["
        + finding.severity()
        + "] "
        + finding.id()
        + " about "
        + finding.subject()
        + ": "
        + finding.message()
        + (finding.evidence().isEmpty() ? "" : " " + finding.evidence())
        + ". What to do: "
        + finding.type().remediation()
        + " (see "
        + finding.type().docsReference()
        + ")";
  }

  /** Called under the lock at each change. */
  private void publish(FindingEvent.Kind kind, Finding finding, Instant at) {
    if (keepRecordedActive) {
      recordedActive = sinceSnapshotLocked();
    }
    if (Jfr.recording()) {
      guarded(() -> FindingRecording.commit(kind, finding));
    }
    if (listeners.isEmpty()) {
      return;
    }
    FindingEvent event = new FindingEvent(kind, finding, at);
    for (Consumer<FindingEvent> listener : listeners) {
      guarded(() -> listener.accept(event));
    }
  }

  /** Runs {@code action}, logging and counting instead of throwing: the host must never see it. */
  private void guarded(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      long count = internalErrors.incrementAndGet();
      // The first few at WARNING so a bug is seen; the rest at DEBUG so it cannot flood the log.
      log.log(count <= 10 ? Level.WARNING : Level.DEBUG, "faultline: findings registry error", e);
    }
  }

  // equals and hashCode written out: a record's generated ones bootstrap method handles at their
  // first call, which the agent's start paid for.
  private record Key(String id, String subject) {
    static Key of(Finding finding) {
      return new Key(finding.id(), finding.subject());
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && Objects.equals(k.id, id) && Objects.equals(k.subject, subject);
    }

    @Override
    public int hashCode() {
      return 31 * Objects.hashCode(id) + Objects.hashCode(subject);
    }
  }

  /** An active finding and when it became active. */
  record Since(Finding finding, Instant since) {}

  /** The mutable state of one active finding; guarded by {@link #lock}. */
  private static final class Active {
    Finding finding;
    String source;
    final Instant since;
    Instant lastLogged;
    Severity loggedSeverity;

    Active(Finding finding, String source, Instant since) {
      this.finding = finding;
      this.source = source;
      this.since = since;
      this.lastLogged = since;
      this.loggedSeverity = finding.severity();
    }
  }
}
