package io.faultline.agent.kafka;

import io.faultline.agent.AgentRuntime;
import io.faultline.core.LogText;
import io.faultline.core.Loggers;
import io.faultline.core.finding.Finding;
import io.faultline.kafka.ClientType;
import io.faultline.kafka.config.AdviceReporter;
import io.faultline.kafka.config.ClientConfigAdvisor;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;

/**
 * The configuration check of a Kafka client at construction, once per client: the no-jitter
 * reconnect trap ({@code KAFKA_RECONNECT_BACKOFF_NO_JITTER}) from what the application set, and a
 * log line saying what was checked (at {@code INFO} with advice, {@code DEBUG} without). Never
 * throws into the client.
 */
public final class ConfigCheck {

  private static final System.Logger LOG = Loggers.get(ConfigCheck.class.getName());
  private static volatile AdviceReporter reporter;

  private ConfigCheck() {}

  /**
   * Checks one client's configuration.
   *
   * @param configClass the configuration's class name ({@code ProducerConfig}, {@code
   *     ConsumerConfig}, {@code AdminClientConfig}): the client's kind
   * @param values the parsed configuration (with the generated {@code client.id})
   * @param originals what the application set
   */
  public static void check(String configClass, Map<String, ?> values, Map<String, ?> originals) {
    try {
      AgentRuntime runtime = AgentRuntime.current().orElse(null);
      if (runtime == null) {
        return;
      }
      AdviceReporter r = reporter;
      if (r == null) {
        synchronized (ConfigCheck.class) {
          if (reporter == null) {
            reporter = new AdviceReporter(runtime.findings());
          }
          r = reporter;
        }
      }
      ClientType type = typeOf(configClass);
      Object id = values.get("client.id");
      String clientId = id == null || id.toString().isEmpty() ? "?" : id.toString();
      // What the application set decides the trap: Kafka's parsed values always carry both keys.
      List<Finding> findings = ClientConfigAdvisor.reconnectBackoff(clientId, originals);
      if (r.reportOnce(type.tagValue() + "/" + clientId, null, findings)) {
        // Quiet when there is nothing to advise: besides the noise on hundreds of services, a
        // service's first INFO line sets up java.util.logging's formatting (tens of ms of CPU)
        // on the thread that builds the client.
        LOG.log(
            findings.isEmpty() ? Level.DEBUG : Level.INFO,
            "faultline: Kafka "
                + type.tagValue()
                + " "
                + LogText.oneLine(clientId)
                + ": configuration checked at construction, "
                + (findings.isEmpty()
                    ? "nothing to advise"
                    : findings.size() + " finding(s): " + findings.get(0).id()));
      }
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "faultline: Kafka configuration advice failed", e);
    }
  }

  static ClientType typeOf(String configClass) {
    if (configClass.endsWith(".ProducerConfig")) {
      return ClientType.PRODUCER;
    }
    if (configClass.endsWith(".ConsumerConfig")) {
      return ClientType.CONSUMER;
    }
    if (configClass.endsWith(".AdminClientConfig")) {
      return ClientType.ADMIN;
    }
    return ClientType.OTHER;
  }
}
