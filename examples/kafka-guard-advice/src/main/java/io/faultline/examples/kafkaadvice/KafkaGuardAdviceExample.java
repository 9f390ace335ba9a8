package io.faultline.examples.kafkaadvice;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.core.host.ProcFs;
import io.faultline.kafka.ClientType;
import io.faultline.kafka.config.AdviceReporter;
import io.faultline.kafka.config.ClientConfigAdvisor;
import io.faultline.kafka.config.KernelBufferLimits;
import io.faultline.kafka.config.LinkMeasurement;
import io.faultline.kafka.connection.ConnectionReport;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * kafka-guard without the agent: the TCP facts of a producer's broker connections ({@link
 * ConnectionReport}: window scaling, RTT, windows, straight from the kernel), then the advice for
 * the producer's configuration ({@link ClientConfigAdvisor}) over a 225 Mbps link with 40 ms RTT
 * (the incident's link), reported once through an {@link AdviceReporter}.
 *
 * <p>Run: {@code java -cp ... io.faultline.examples.kafkaadvice.KafkaGuardAdviceExample
 * BOOTSTRAP_SERVERS}
 */
public final class KafkaGuardAdviceExample {

  /**
   * What the example observed.
   *
   * @param brokers the broker addresses the cluster reported
   * @param report the connection report
   * @param advice the socket-buffer advice
   * @param findings every finding reported (advice and backoff), active at the end
   */
  public record Result(
      List<InetSocketAddress> brokers,
      ConnectionReport report,
      ClientConfigAdvisor.Advice advice,
      List<Finding> findings) {}

  private KafkaGuardAdviceExample() {}

  /** Runs against {@code BOOTSTRAP_SERVERS}. */
  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: KafkaGuardAdviceExample BOOTSTRAP_SERVERS");
      System.exit(2);
    }
    run(args[0], System.out);
  }

  /** Produces 1 MB, reports the connections, then advises on the producer's configuration. */
  public static Result run(String bootstrapServers, PrintStream out) throws Exception {
    String topic = "advice-example-" + UUID.randomUUID();
    Map<String, Object> producerConfig = new HashMap<>();
    producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    producerConfig.put(ProducerConfig.CLIENT_ID_CONFIG, "advice-example");
    producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
    // The trap: a fixed reconnect backoff without a maximum means no jitter at all.
    producerConfig.put(ProducerConfig.RECONNECT_BACKOFF_MS_CONFIG, "1000");

    try (Admin admin =
            Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(
                producerConfig, new ByteArraySerializer(), new ByteArraySerializer())) {
      admin
          .createTopics(List.of(new NewTopic(topic, 1, (short) 1)))
          .all()
          .get(60, TimeUnit.SECONDS);
      // Traffic first, so the kernel has an RTT, windows and a delivery rate to report.
      for (int i = 0; i < 16; i++) {
        producer.send(new ProducerRecord<>(topic, new byte[64 * 1024]));
      }
      producer.send(new ProducerRecord<>(topic, new byte[10])).get(60, TimeUnit.SECONDS);

      out.println("== Broker connections of this JVM (TCP_INFO, no agent)");
      List<InetSocketAddress> brokers = ConnectionReport.brokersOf(admin);
      ConnectionReport report = ConnectionReport.of(brokers);
      out.print(report.render());

      out.println("== Configuration advice for a 225 Mbps link with 40 ms RTT");
      ClientConfigAdvisor.Advice advice =
          ClientConfigAdvisor.socketBuffers(
              ClientType.PRODUCER,
              "advice-example",
              producerConfig,
              LinkMeasurement.ofMbps(225, 40),
              KernelBufferLimits.read(ProcFs.system()));
      List<Finding> backoff =
          ClientConfigAdvisor.reconnectBackoff("advice-example", producerConfig);
      out.printf(
          "   bandwidth-delay product %d bytes; send.buffer.bytes %d, receive.buffer.bytes %d%n",
          advice.bdpBytes(), advice.sendBufferBytes(), advice.receiveBufferBytes());
      advice.notes().forEach(note -> out.println("   note: " + note));

      Findings findings =
          new Findings(Duration.ofMinutes(1), Clock.systemUTC(), System.getLogger("faultline"));
      AdviceReporter reporter = new AdviceReporter(findings);
      reporter.reportOnce("advice-example", advice, backoff);
      // A second report for the same client is ignored: clients made in a loop do not flood.
      reporter.reportOnce("advice-example", advice, backoff);
      for (Finding f : findings.active()) {
        out.println("   finding " + f.id() + " (" + f.severity() + "): " + f.message());
      }
      admin.deleteTopics(List.of(topic));
      return new Result(brokers, report, advice, findings.active());
    }
  }
}
