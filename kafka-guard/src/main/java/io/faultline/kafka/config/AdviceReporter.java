package io.faultline.kafka.config;

import io.faultline.core.LogText;
import io.faultline.core.Loggers;
import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reports configuration advice once per client: the findings go to {@link Findings}, the notes to
 * the log at INFO, the first time a client key is seen; later reports for the same key are ignored,
 * so a client constructed in a loop does not flood the log. Thread-safe; never throws.
 */
public final class AdviceReporter {

  private static final System.Logger LOG = Loggers.get(AdviceReporter.class.getName());

  private final Findings findings;
  private final Set<String> reported = ConcurrentHashMap.newKeySet();

  /** Reports into {@code findings}. */
  public AdviceReporter(Findings findings) {
    this.findings = findings;
  }

  /**
   * Reports {@code advice} and {@code more} findings for {@code clientKey} (e.g. the {@code
   * client.id}), if this is the first report for it.
   *
   * @return whether anything was reported
   */
  public boolean reportOnce(
      String clientKey, ClientConfigAdvisor.Advice advice, List<Finding> more) {
    if (!reported.add(clientKey == null ? "" : clientKey)) {
      return false;
    }
    try {
      List<Finding> all = new ArrayList<>();
      if (advice != null) {
        all.addAll(advice.findings());
      }
      if (more != null) {
        all.addAll(more);
      }
      all.forEach(findings::raise);
      if (advice != null) {
        for (String note : advice.notes()) {
          LOG.log(
              Level.INFO,
              "Faultline: Kafka client "
                  + LogText.oneLine(clientKey)
                  + ": "
                  + LogText.escape(note));
        }
      }
      return true;
    } catch (RuntimeException e) {
      LOG.log(
          Level.DEBUG,
          "Faultline: reporting advice for " + LogText.oneLine(clientKey) + " failed",
          e);
      return false;
    }
  }
}
