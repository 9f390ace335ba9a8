package io.faultline.examples.demo;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What a scene can use: the console, the service, its agent's endpoint, the Kafka cluster and (when
 * the host allows one) the brokers' network namespace.
 */
final class DemoContext {

  final Console console;
  final ServiceProcess service;
  final AgentEndpoint agent;
  final KafkaCluster kafka;
  final BrokerNamespace namespace;
  final String namespaceWhyNot;

  DemoContext(
      Console console,
      ServiceProcess service,
      AgentEndpoint agent,
      KafkaCluster kafka,
      BrokerNamespace namespace,
      String namespaceWhyNot) {
    this.console = console;
    this.service = service;
    this.agent = agent;
    this.kafka = kafka;
    this.namespace = namespace;
    this.namespaceWhyNot = namespaceWhyNot;
  }

  /** Sends a command to the service, showing progress under {@code label}. */
  ServiceProcess.Reply call(String label, String command, Duration expected) {
    try (Console.Progress progress = console.progress(label, expected)) {
      return service.call(command, expected.multipliedBy(4).plusSeconds(30), progress::tick);
    }
  }

  /** Waits for a finding with this id, showing progress; prints it when it comes. */
  Optional<FindingView> awaitFinding(String id, Duration timeout) {
    Optional<FindingView> found;
    try (Console.Progress progress =
        console.progress("waiting for Faultline to report " + id, timeout)) {
      found = agent.awaitFinding(f -> f.id().equals(id), timeout, progress::tick);
    }
    found.ifPresentOrElse(
        this::show,
        () ->
            console.line(
                "Faultline did NOT report " + id + " within " + timeout.toSeconds() + " s"));
    return found;
  }

  /** Prints a finding: id, subject, message, evidence, advice, docs. */
  void show(FindingView f) {
    console.line("Faultline found: " + f.id() + " (" + f.severity() + ") on " + f.subject());
    console.line("  " + f.message());
    if (!f.evidence().isEmpty()) {
      StringBuilder evidence = new StringBuilder("  evidence:");
      for (Map.Entry<String, String> e : f.evidence().entrySet()) {
        evidence.append(' ').append(e.getKey()).append('=').append(e.getValue());
      }
      console.line(evidence.toString());
    }
    console.line("  advice: " + f.remediation());
    if (!f.docs().isEmpty()) {
      console.line("  docs: " + f.docs());
    }
  }
}
