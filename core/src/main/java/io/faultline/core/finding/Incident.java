package io.faultline.core.finding;

/**
 * The public incidents Faultline's findings come from, each explained in {@code docs/incidents.md}.
 * A finding type names the ones it answers, so its documentation and {@code explain} can point to
 * the story behind it.
 */
public enum Incident {

  /** LINE's 2021 DEVDAY Kafka talk: a broker restart, 16 s producer latency, SYN cookies. */
  LINE_KAFKA("the LINE Kafka incident", "line-kafka"),

  /** The AWS Elastic Beanstalk (Nginx to Tomcat) tuning write-up: TIME_WAIT, ephemeral ports. */
  ELASTIC_BEANSTALK_PORTS("the Elastic Beanstalk port exhaustion", "elastic-beanstalk-ports"),

  /** Tencent CKafka's cross-ocean replication: window scaling lost behind a NAT. */
  TENCENT_CKAFKA("the Tencent CKafka incident", "tencent-ckafka"),

  /** Netmarble's RPS article: every NET_RX softirq on one core. */
  NETMARBLE_RPS("the Netmarble RPS case", "netmarble-rps"),

  /** Channel.io's 31 December outage: savepoints, MultiXacts, SLRU waits. */
  CHANNEL_IO_POSTGRESQL("the Channel.io PostgreSQL outage", "channel-io-postgresql");

  private final String publicName;
  private final String anchor;

  Incident(String publicName, String anchor) {
    this.publicName = publicName;
    this.anchor = anchor;
  }

  /** How product text names it, e.g. {@code the LINE Kafka incident}. */
  public String publicName() {
    return publicName;
  }

  /** The anchor of its section in {@code docs/incidents.md}, without {@code #}. */
  public String anchor() {
    return anchor;
  }

  /** Its section, relative to the repository root, e.g. {@code docs/incidents.md#line-kafka}. */
  public String docsAnchor() {
    return "docs/incidents.md#" + anchor;
  }
}
