package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Whatever the agent argument says, the application starts: 200+ child JVMs, each with {@code
 * -javaagent:<jar>=<generated malformed argument>}, must run {@code main} and exit 0. Several run
 * at once; each argument still starts a JVM of its own.
 */
class ConfigFuzzTest {

  private static final int GENERATED = 180;

  /** Hand-written nasties first, then seeded random ones. */
  static List<String> arguments() {
    List<String> args =
        new ArrayList<>(
            List.of(
                "",
                "=",
                "==",
                ",",
                ",,,,",
                "=,=,=",
                "prometheus.port",
                "prometheus.port=",
                "prometheus.port=-1",
                "prometheus.port=70000",
                "prometheus.port=99999999999999999999",
                "prometheus.port=0x10",
                "prometheus.port=1,prometheus.port=2,prometheus.port=0",
                "prometheus.host=not a host name,prometheus.port=0",
                "prometheus.host=256.256.256.256",
                "doctor.interval=-5s",
                "doctor.interval=-PT5S",
                "doctor.interval=5 fortnights",
                "doctor.interval=999999999999999999d",
                "findings.log-interval=-1ms",
                "instrumentation.error-limit=-7",
                "instrumentation.error-limit=0",
                "instrumentation=maybe",
                "micrometer.bridge=yesplease",
                "config=/nonexistent/faultline.properties",
                "config=/proc/self/mem",
                "config=/",
                "tags=\"unterminated",
                "\"",
                "\"\"=\"\"",
                "prometheus.port=\"0\"",
                "ключ=значение",
                "端口=9464",
                "prometheus.port=９４６４",
                "emoji=\uD83D\uDCA5\uD83D\uDD25",
                "lone=\uD800",
                "control=\u0001\u001b[31m",
                "newline=a\nb",
                "tab=\t\t",
                "x".repeat(100_000),
                "k=" + "v".repeat(100_000),
                "prometheus.port=" + "9".repeat(5_000),
                "a=b=c=d",
                " prometheus.port = 0 ",
                "PROMETHEUS.PORT=0",
                "prometheus..port=0",
                ".=.",
                "-Dfaultline.prometheus.port=0",
                "%s%s%s%n",
                "${jndi:ldap://127.0.0.1/x}",
                "../../../../etc/passwd=1",
                "instrumentation=off,micrometer.bridge=off,prometheus.port=0,doctor=off"));
    Random random = new Random(20261122L);
    List<String> keys =
        List.of(
            "prometheus.port",
            "prometheus.host",
            "doctor.interval",
            "instrumentation",
            "instrumentation.error-limit",
            "micrometer.bridge",
            "findings.log-interval",
            "config",
            "unknown.key",
            "");
    String alphabet = "=,\"\\ \t-+.0123456789abcdefsmhdKiBMG%$#@!é漢\uD83D\uDE00";
    for (int i = 0; i < GENERATED; i++) {
      StringBuilder arg = new StringBuilder();
      int parts = 1 + random.nextInt(5);
      for (int p = 0; p < parts; p++) {
        if (p > 0) {
          arg.append(random.nextInt(8) == 0 ? ",," : ",");
        }
        arg.append(keys.get(random.nextInt(keys.size())));
        if (random.nextInt(6) != 0) {
          arg.append('=');
        }
        int length = random.nextInt(12);
        for (int c = 0; c < length; c++) {
          arg.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
      }
      args.add(arg.toString());
    }
    return args;
  }

  @Test
  void everyMalformedArgumentStillRunsTheApplication() throws Exception {
    List<String> arguments = arguments();
    assertThat(arguments).hasSizeGreaterThanOrEqualTo(200);
    Instant start = Instant.now();
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<String>> failures = new ArrayList<>();
      for (String argument : arguments) {
        failures.add(pool.submit(() -> runOne(argument)));
      }
      List<String> failed = new ArrayList<>();
      for (Future<String> f : failures) {
        String failure = f.get();
        if (failure != null) {
          failed.add(failure);
        }
      }
      Duration took = Duration.between(start, Instant.now());
      System.out.printf(
          "ConfigFuzzTest: %d child JVMs with malformed agent arguments in %d s%n",
          arguments.size(), took.toSeconds());
      assertThat(failed).isEmpty();
    } finally {
      pool.shutdownNow();
    }
  }

  /** Null when the child ran main and exited 0 with no agent error; else what went wrong. */
  private static String runOne(String argument) {
    ChildJvm.Result result =
        ChildJvm.on(Jdk.current())
            // Children must not fight over the default port; an argument may still set one.
            .env("FAULTLINE_PROMETHEUS_PORT", "0")
            .agentArgs(argument)
            .run(60, "io.faultline.it.agent.app.HelloApp");
    boolean ok =
        result.exited()
            && result.exitCode() == 0
            && result.stdout().contains("main ran")
            && !result.stderr().contains("Exception in thread")
            && !result.stderr().contains("the agent could not start")
            && !result.stderr().contains(ChildJvm.ERRORS_AT_EXIT);
    if (ok) {
      return null;
    }
    String shown = argument.length() > 200 ? argument.substring(0, 200) + "..." : argument;
    return "argument "
        + shown
        + " -> exit "
        + result.exitCode()
        + (result.exited() ? "" : " (timed out)")
        + "\nstdout: "
        + result.stdout()
        + "\nstderr: "
        + result.stderr();
  }
}
