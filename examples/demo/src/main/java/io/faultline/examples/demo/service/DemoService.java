package io.faultline.examples.demo.service;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The demo's service: a plain jOOQ + HikariCP + kafka-clients application with no Faultline code,
 * run by the launcher with {@code -javaagent:} on the agent jar. It does, one command at a time,
 * what the incidents in docs/incidents.md did; the launcher then asks the agent what it saw.
 *
 * <p>Commands arrive one per line on standard input ({@code name arg...}); each is answered by one
 * line on standard output, {@code @done name key=value ...} or {@code @failed name message}. End of
 * input or {@code quit} stops the service. Arguments: JDBC URL, user, password, Kafka bootstrap
 * servers.
 */
public final class DemoService {

  private DemoService() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      System.err.println("usage: DemoService <jdbc-url> <user> <password> <bootstrap-servers>");
      System.exit(64);
    }
    awaitAgent();
    try (Accounts accounts = new Accounts(args[0], args[1], args[2]);
        ProducerFleet fleet = new ProducerFleet(args[3])) {
      ConnectionPerRequestClient churn = new ConnectionPerRequestClient();
      reply("@ready");
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] words = line.trim().split("\\s+");
        if (words[0].isEmpty()) {
          continue;
        }
        if (words[0].equals("quit")) {
          break;
        }
        String[] rest = Arrays.copyOfRange(words, 1, words.length);
        try {
          Map<String, Object> result =
              switch (words[0]) {
                case "savepoint" -> accounts.lockThenNestedUpdate();
                case "runaway" -> accounts.runawayQuery(Integer.parseInt(rest[0]));
                case "long-transaction" -> accounts.longTransaction(Integer.parseInt(rest[0]));
                case "produce" -> fleet.produce(Integer.parseInt(rest[0]));
                case "fleet-start" -> fleet.startFleet(Integer.parseInt(rest[0]));
                case "fleet-mark" -> fleet.mark();
                case "fleet-report" -> fleet.report();
                case "fleet-stop" -> fleet.stopFleet();
                case "wscale-producer" -> fleet.freshProducer(rest[0], Integer.parseInt(rest[1]));
                case "churn" -> churn.run(Integer.parseInt(rest[0]), Integer.parseInt(rest[1]));
                default -> throw new IllegalArgumentException("unknown command " + words[0]);
              };
          reply(
              "@done "
                  + words[0]
                  + result.entrySet().stream()
                      .map(e -> " " + e.getKey() + "=" + e.getValue())
                      .collect(Collectors.joining()));
        } catch (Exception e) {
          reply("@failed " + words[0] + " " + String.valueOf(e).replace('\n', ' '));
        }
      }
    }
    reply("@bye");
  }

  private static synchronized void reply(String line) {
    System.out.println(line);
    System.out.flush();
  }

  /**
   * Waits (at most 30 s) until the agent has woven the libraries. The agent never makes an
   * application wait: a pool or a producer created before it is installed is observed only from its
   * next call on, and the demo wants every scene seen whole. Reached by name: the service has no
   * Faultline code.
   */
  private static void awaitAgent() throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (System.nanoTime() < deadline) {
      try {
        Class<?> runtime = Class.forName("io.faultline.agent.AgentRuntime");
        Object current =
            ((java.util.Optional<?>) runtime.getMethod("current").invoke(null)).orElse(null);
        if (current != null && (Boolean) runtime.getMethod("isInstalled").invoke(current)) {
          return;
        }
      } catch (ReflectiveOperationException | LinkageError e) {
        return; // no agent
      }
      Thread.sleep(10);
    }
  }
}
