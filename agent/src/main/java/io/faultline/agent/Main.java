package io.faultline.agent;

import io.faultline.core.host.DoctorCommand;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * {@code java -jar faultline-agent.jar <command>}: {@code doctor} (the host checks), {@code
 * version}, {@code help}. Exit code 64 for an unknown command.
 */
public final class Main {

  static final String USAGE =
      String.join(
          "\n",
          "Usage: java -jar faultline-agent.jar <command> [options]",
          "",
          "Commands:",
          "  doctor [options]   check this host's kernel settings and counters (doctor --help)",
          "  version            print the agent's version",
          "  help               this text",
          "",
          "As an agent: java -javaagent:faultline-agent.jar[=key=value,...] -jar your-app.jar",
          "See docs/agent.md and docs/configuration.md.",
          "");

  private Main() {}

  /** Runs the command and exits with its code. */
  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("doctor")) {
      DoctorCommand.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    System.exit(run(args, System.out, System.err));
  }

  /** Every command but {@code doctor} (which exits itself); returns the exit code. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0) {
      err.print(USAGE);
      return DoctorCommand.EXIT_USAGE;
    }
    switch (args[0]) {
      case "version":
      case "--version":
        out.println("faultline-agent " + AgentVersion.get());
        return 0;
      case "help":
      case "--help":
      case "-h":
        out.print(USAGE);
        return 0;
      default:
        err.println("faultline: unknown command '" + args[0] + "'");
        err.print(USAGE);
        return DoctorCommand.EXIT_USAGE;
    }
  }
}
