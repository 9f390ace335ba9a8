package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JDK's socket classes woven and counting when the application loads them first while the agent
 * is still starting, after the {@code jdk-socket-connect} module was installed and before the start
 * ended. Such a class loads unwoven, as every class of the start does; it was then never woven, and
 * a service whose first connection fell in that moment had its connections uncounted for good (a
 * container on a busy machine did).
 */
class JdkSocketsLoadedMidStartTest {

  private static final int N = 5;
  private static final int ATTEMPTS = 5;

  static Stream<Jdk> jdks() {
    return Jdk.available().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void socketClassesFirstLoadedDuringTheStartAreWovenWhenItEnds(Jdk jdk) {
    ChildJvm.Result result = null;
    // The child loads the classes at the right moment only if it sees the agent's start thread
    // there before the start ends; it says so, and the run is repeated when it did not.
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      int port = Http.freePort();
      result =
          ChildJvm.on(jdk)
              .agentArgs("prometheus.port=" + port + ",net.churn.interval=200ms")
              .option("-Xlog:class+load=info:stdout")
              .run(90, "io.faultline.it.agent.app.SocketsLoadedMidStartApp", "" + port, "" + N)
              .assertCleanExit();
      if (result.stdout().contains("in-window yes")) {
        break;
      }
    }
    String stdout = result.stdout();
    // The child's output without the JVM's class-loading log, for the messages.
    String output =
        stdout.lines().filter(l -> !l.contains("[class,load]")).collect(Collectors.joining("\n"))
            + "\nstderr:\n"
            + result.stderr();
    assertThat(stdout)
        .as("the classes loaded during the start, after the module's install; output:%n%s", output)
        .contains("in-window yes");
    int marker = stdout.indexOf("loading-jdk-socket-classes");
    assertThat(stdout.indexOf("java.net.Socket source:"))
        .as("java.net.Socket first loaded by the child's main, not before")
        .isGreaterThan(marker);
    assertThat(stdout.indexOf("sun.nio.ch.SocketChannelImpl source:")).isGreaterThan(marker);
    assertThat(stdout)
        .as("both woven; output:%n%s", output)
        .contains(
            "\"name\":\"jdk-socket-connect\",\"state\":\"ACTIVE\",\"reason\":\"\","
                + "\"woven\":[\"java.net.Socket\",\"sun.nio.ch.SocketChannelImpl\"]");
    for (String kind : new String[] {"socket", "channel"}) {
      assertThat(ConnectCountingTest.counted(stdout, destination(stdout, kind)))
          .as("connects counted for %s; output:%n%s", kind, output)
          .isEqualTo(N);
    }
  }

  private static String destination(String stdout, String kind) {
    Matcher m = Pattern.compile("kind " + kind + " (\\S+)").matcher(stdout);
    assertThat(m.find()).as("kind " + kind).isTrue();
    return m.group(1);
  }
}
