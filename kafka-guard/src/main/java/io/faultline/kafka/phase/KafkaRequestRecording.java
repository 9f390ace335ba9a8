package io.faultline.kafka.phase;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.SettingDefinition;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * The JDK Flight Recorder event of one Kafka request slower than its {@code slowerThan} setting
 * (default {@value SlowerThan#DEFAULT}), with its phases. Committed on the client's I/O thread when
 * the response is read, so the event's own time is the end of the request.
 */
@Name("io.faultline.KafkaRequest")
@Label("Kafka Request")
@Category({"Faultline", "Kafka"})
@Description(
    "A Kafka request slower than the slowerThan setting, split into queue, transmit, delivery,"
        + " response and receive")
@StackTrace(false)
final class KafkaRequestRecording extends jdk.jfr.Event {

  @Label("Client Type")
  String clientType;

  @Label("Client Id")
  String clientId;

  @Label("Node")
  String node;

  @Label("API")
  String api;

  @Label("Latency")
  @Description("Created to last response byte read")
  @Timespan(Timespan.NANOSECONDS)
  long latency;

  @Label("Queue")
  @Description("Created to first byte handed to the socket")
  @Timespan(Timespan.NANOSECONDS)
  long queue;

  @Label("Transmit")
  @Description("First to last byte handed to the socket")
  @Timespan(Timespan.NANOSECONDS)
  long transmit;

  @Label("Delivery")
  @Description(
      "Last byte handed to the kernel to acknowledged by the broker's TCP; -1 when not observed"
          + " (then Response includes it)")
  @Timespan(Timespan.NANOSECONDS)
  long delivery;

  @Label("Response")
  @Description("Broker has the request to first response byte")
  @Timespan(Timespan.NANOSECONDS)
  long response;

  @Label("Receive")
  @Description("First to last response byte")
  @Timespan(Timespan.NANOSECONDS)
  long receive;

  @Label("Slower Than")
  @Name("slowerThan")
  @SettingDefinition
  boolean slowerThan(SlowerThan threshold) {
    return latency >= threshold.nanos();
  }
}
