package io.faultline.spring.boot;

import io.faultline.core.Jfr;
import io.faultline.core.finding.ActiveFindingsInRecordings;
import io.faultline.core.finding.Findings;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.springframework.context.SmartLifecycle;

/**
 * Puts the application's active findings in every JDK Flight Recorder recording ({@code
 * io.faultline.ActiveFinding}), so a recording started with {@code jcmd} after a finding was raised
 * still shows it. Until Flight Recorder is initialized it is looked at on a daemon thread of this
 * bean's, at intervals that grow from a second to eight ({@link ActiveFindingsInRecordings}); the
 * thread ends a few seconds after it found it; stopped with the context.
 */
final class FindingsInFlightRecordings implements SmartLifecycle {

  private static final System.Logger LOG =
      System.getLogger(FindingsInFlightRecordings.class.getName());

  // Past the looks' interval, so the thread waits for the next look instead of ending.
  private static final long IDLE_THREAD_ENDS_AFTER_SECONDS = 5;

  private final Findings findings;
  private ScheduledThreadPoolExecutor looks;
  private ActiveFindingsInRecordings watch;

  FindingsInFlightRecordings(Findings findings) {
    this.findings = findings;
  }

  @Override
  public synchronized void start() {
    if (looks != null || !Jfr.available()) {
      return;
    }
    looks =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "faultline-findings-jfr");
              t.setDaemon(true);
              return t;
            });
    looks.setKeepAliveTime(IDLE_THREAD_ENDS_AFTER_SECONDS, TimeUnit.SECONDS);
    looks.allowCoreThreadTimeOut(true);
    watch =
        ActiveFindingsInRecordings.start(
            findings,
            looks,
            e ->
                LOG.log(
                    System.Logger.Level.WARNING,
                    "faultline: the active findings stay out of JFR recordings: adding them"
                        + " failed",
                    e));
  }

  @Override
  public synchronized void stop() {
    if (looks == null) {
      return;
    }
    watch.close();
    looks.shutdownNow();
    looks = null;
    watch = null;
  }

  @Override
  public synchronized boolean isRunning() {
    return looks != null;
  }
}
