package io.faultline.it.agent;

import java.net.InetSocketAddress;
import java.util.Map;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/** Reads a broker's own metrics over remote JMX (the container's address, no authentication). */
final class BrokerJmx {

  private BrokerJmx() {}

  /**
   * A broker's {@code kafka.network:type=RequestMetrics,name=TotalTimeMs,request=<request>}: the
   * time from the broker having the whole request to the response handed to its socket.
   */
  static RequestTime totalTime(InetSocketAddress jmx, String request) throws Exception {
    JMXServiceURL url =
        new JMXServiceURL(
            "service:jmx:rmi:///jndi/rmi://"
                + jmx.getAddress().getHostAddress()
                + ":"
                + jmx.getPort()
                + "/jmxrmi");
    try (JMXConnector connector = JMXConnectorFactory.connect(url, Map.of())) {
      MBeanServerConnection server = connector.getMBeanServerConnection();
      ObjectName name =
          new ObjectName("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=" + request);
      return new RequestTime(
          ((Number) server.getAttribute(name, "Count")).longValue(),
          ((Number) server.getAttribute(name, "Mean")).doubleValue(),
          ((Number) server.getAttribute(name, "99thPercentile")).doubleValue(),
          ((Number) server.getAttribute(name, "Max")).doubleValue());
    }
  }

  /**
   * The broker's histogram of one request type, milliseconds.
   *
   * @param count requests seen
   * @param meanMs mean
   * @param p99Ms 99th percentile (recent, exponentially decaying sample)
   * @param maxMs maximum
   */
  record RequestTime(long count, double meanMs, double p99Ms, double maxMs) {}
}
