package faultlinefixture.app;

import io.faultline.agent.AgentRuntime;
import io.faultline.agent.instrumentation.InstalledModule;

/**
 * The application of the framework tests: calls every {@link Greeter} method, prints what came
 * back, then the state of every instrumentation module as {@code module <name> <state> errors=<n>
 * woven=<types>}.
 */
public final class FixtureApp {

  private FixtureApp() {}

  /** Runs the calls; {@code args[0]} is how many times to call {@code shout} (default 30). */
  public static void main(String[] args) throws InterruptedException {
    // The agent installs while main runs and nothing waits for it: the calls below must come
    // after it, or they are not observed (Greeter is loaded only once it is done).
    awaitAgent();
    run(args);
  }

  private static void awaitAgent() throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (System.nanoTime() < deadline
        && AgentRuntime.current().map(r -> !r.isInstalled()).orElse(agentAttached())) {
      Thread.sleep(10);
    }
  }

  /** Whether a Faultline agent is on this JVM's command line. */
  private static boolean agentAttached() {
    return java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .anyMatch(a -> a.startsWith("-javaagent:") && a.contains("faultline-agent"));
  }

  private static void run(String[] args) {
    Greeter greeter = new Greeter();
    System.out.println("greet: " + greeter.greet("world"));
    System.out.println("count: " + greeter.count(41));
    int shouts = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    String last = "";
    for (int i = 0; i < shouts; i++) {
      last = greeter.shout("call " + i);
    }
    System.out.println("shout: " + last);
    AgentRuntime.current()
        .ifPresentOrElse(
            runtime -> {
              for (InstalledModule m : runtime.modules()) {
                System.out.println(
                    "module "
                        + m.name()
                        + " "
                        + m.moduleSwitch().state()
                        + " errors="
                        + m.errors()
                        + " woven="
                        + m.wovenTypes());
              }
            },
            () -> System.out.println("no agent"));
    System.out.println("advice-calls: " + io.faultline.agent.fixture.ThrowingAdvice.calls());
  }
}
