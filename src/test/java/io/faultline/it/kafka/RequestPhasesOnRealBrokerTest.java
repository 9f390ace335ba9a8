package io.faultline.it.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.core.net.Outcome;
import io.faultline.core.net.SocketFds;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoReader;
import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import io.faultline.kafka.phase.ConnectionPhaseTracker;
import io.faultline.kafka.phase.PhaseRecorder;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The phase tracker fed from a real broker connection without the agent: this test is its own tiny
 * Kafka client (ApiVersions v0 requests, pipelined) and reports the events the advice will report,
 * with TCP_INFO samples of the real socket, and on alternate rounds {@code SIOCOUTQ} reads against
 * the bytes written. It proves that delivery matching by the kernel's {@code bytes_acked}, or by
 * the bytes written less those unacknowledged, against the bytes handed to the socket works on a
 * real kernel.
 */
@ExtendWith(RealServers.class)
class RequestPhasesOnRealBrokerTest {

  private static final short API_VERSIONS = 18;

  record Rec(short api, long queue, long transmit, long delivery, long response, long receive) {}

  @Test
  void splitsPipelinedRequestsToARealBroker(KafkaCluster kafka) throws Exception {
    TcpInfoReader reader = TcpInfoReader.create();
    assumeTrue(reader.isSupported(), "TCP_INFO is read only on Linux");
    InetSocketAddress broker = kafka.nodes().get(0).address();
    List<Rec> recorded = new ArrayList<>();
    PhaseRecorder recorder = (a, q, t, d, r, rc) -> recorded.add(new Rec(a, q, t, d, r, rc));
    ConnectionPhaseTracker tracker = new ConnectionPhaseTracker(recorder, true);

    try (SocketChannel channel = SocketChannel.open(broker)) {
      InetSocketAddress local = (InetSocketAddress) channel.getLocalAddress();
      Outcome<Integer> fd = SocketFds.forThisProcess().byAddress(broker, local);
      assertThat(fd.isAvailable()).as("fd: %s", fd).isTrue();
      int rounds = 20;
      int pipelined = 3;
      List<Long> latencies = new ArrayList<>();
      int correlation = 0;
      long written = 0;
      for (int round = 0; round < rounds; round++) {
        int first = correlation;
        for (int i = 0; i < pipelined; i++) {
          int c = correlation++;
          ByteBuffer request = apiVersionsRequest(c);
          tracker.requestCreated(c, API_VERSIONS, true, System.nanoTime());
          while (request.hasRemaining()) {
            int n = channel.write(request);
            if (n > 0) {
              tracker.bytesWritten(n, System.nanoTime());
            }
          }
          tracker.sendCompleted(request.capacity(), System.nanoTime());
          written += request.capacity();
        }
        // What the delivery sampler does while sends are outstanding: read TCP_INFO's
        // bytes_acked, or (every other round, where it can) the bytes written less SIOCOUTQ's.
        boolean outputQueue = reader.readsUnacknowledgedBytes() && round % 2 == 1;
        long deadline = System.nanoTime() + 1_000_000_000L;
        while (tracker.awaitingDelivery() && System.nanoTime() < deadline) {
          long acked;
          if (outputQueue) {
            long wire = tracker.wireOffset();
            acked = wire - reader.unacknowledgedBytes(fd.value().orElseThrow());
          } else {
            TcpInfo info = reader.read(fd.value().orElseThrow()).value().orElseThrow();
            acked = info.bytesAcked().orElseThrow();
          }
          tracker.tcpSample(acked, System.nanoTime());
        }
        for (int i = 0; i < pipelined; i++) {
          ByteBuffer size = ByteBuffer.allocate(4);
          readFully(channel, size, tracker, true);
          ByteBuffer body = ByteBuffer.allocate(size.flip().getInt());
          readFully(channel, body, tracker, false);
          int c = body.flip().getInt();
          assertThat(c).isEqualTo(first + i);
          latencies.add(tracker.responseCompleted(c, System.nanoTime()));
        }
      }
      assertThat(recorded).hasSize(rounds * pipelined);
      assertThat(latencies).allSatisfy(l -> assertThat(l).isPositive());
      assertThat(tracker.unmatchedEvents()).isZero();
      assertThat(tracker.droppedRequests()).isZero();
      assertThat(tracker.inFlight()).isZero();
      // Every request's ack was seen before its response: delivery measured, not merged.
      assertThat(recorded).allSatisfy(r -> assertThat(r.delivery()).isNotNegative());
      assertThat(recorded)
          .allSatisfy(
              r -> {
                assertThat(r.queue()).isNotNegative();
                assertThat(r.response()).isNotNegative();
                assertThat(r.receive()).isNotNegative();
              });
      double deliveryUs = recorded.stream().mapToLong(Rec::delivery).average().orElse(0) / 1e3;
      double responseUs = recorded.stream().mapToLong(Rec::response).average().orElse(0) / 1e3;
      double latencyUs = latencies.stream().mapToLong(Long::longValue).average().orElse(0) / 1e3;
      TcpInfo end = reader.read(fd.value().orElseThrow()).value().orElseThrow();
      // The kernel counts the SYN as one acknowledged byte; the tracker relies on it.
      assertThat(end.bytesAcked()).hasValue(written + ConnectionPhaseTracker.SYN_OCTETS);
      assertThat(tracker.wireOffset()).isEqualTo(written + ConnectionPhaseTracker.SYN_OCTETS);
      if (reader.readsUnacknowledgedBytes()) {
        // All answered: nothing unacknowledged, and both routes give the same offset.
        assertThat(reader.unacknowledgedBytes(fd.value().orElseThrow())).isZero();
      }
      System.out.printf(
          "[faultline-it] %d ApiVersions requests to %s: mean latency %.0f µs, delivery %.0f µs,"
              + " response %.0f µs; kernel: rtt %d µs, bytes_acked %d, wscale %s%n",
          recorded.size(),
          broker,
          latencyUs,
          deliveryUs,
          responseUs,
          end.rttMicros(),
          end.bytesAcked().orElse(-1),
          end.windowScalingNegotiated() ? end.sndWscale() + "/" + end.rcvWscale() : "off");
    }
  }

  private static void readFully(
      SocketChannel channel, ByteBuffer buffer, ConnectionPhaseTracker tracker, boolean first)
      throws Exception {
    boolean started = false;
    while (buffer.hasRemaining()) {
      if (channel.read(buffer) < 0) {
        throw new IllegalStateException("broker closed the connection");
      }
      if (first && !started) {
        tracker.responseStarted(System.nanoTime());
        started = true;
      }
    }
  }

  /** ApiVersions v0: request header v1 (api key, version, correlation id, client id), no body. */
  private static ByteBuffer apiVersionsRequest(int correlation) {
    byte[] clientId = "faultline-it".getBytes(StandardCharsets.UTF_8);
    int size = 2 + 2 + 4 + 2 + clientId.length;
    ByteBuffer b = ByteBuffer.allocate(4 + size);
    b.putInt(size).putShort(API_VERSIONS).putShort((short) 0).putInt(correlation);
    b.putShort((short) clientId.length).put(clientId);
    return b.flip();
  }
}
