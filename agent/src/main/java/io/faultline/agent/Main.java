package io.faultline.agent;

import io.faultline.core.docs.FindingExplanation;
import io.faultline.core.finding.FindingCatalogs;
import io.faultline.core.finding.FindingType;
import io.faultline.core.host.DoctorCommand;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code java -jar faultline-agent.jar <command>}: {@code doctor} (the host checks), {@code
 * explain} (a finding's documentation), {@code version}, {@code help}. Exit code 64 for an unknown
 * command or finding id.
 */
public final class Main {

  static final String USAGE =
      String.join(
          "\n",
          "Usage: java -jar faultline-agent.jar <command> [options]",
          "",
          "Commands:",
          "  doctor [options]   check this host's kernel settings and counters (doctor --help)",
          "  explain <ID>       print what a finding means and what to do, e.g. explain"
              + " KAFKA_WINDOW_SCALING_OFF",
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
      case "version", "--version" -> {
        out.println("faultline-agent " + AgentVersion.get());
        return 0;
      }
      case "explain" -> {
        return explain(args, out, err);
      }
      case "help", "--help", "-h" -> {
        out.print(USAGE);
        return 0;
      }
      default -> {
        err.println("faultline: unknown command '" + args[0] + "'");
        err.print(USAGE);
        return DoctorCommand.EXIT_USAGE;
      }
    }
  }

  /**
   * {@code explain <ID>}: the finding's documentation from the catalogs on the class path (the
   * declarations {@code docs/findings.md} is generated from). The id is matched ignoring case.
   */
  private static int explain(String[] args, PrintStream out, PrintStream err) {
    List<FindingType> types = FindingCatalogs.fromClassPath();
    if (args.length != 2) {
      err.println("faultline: explain needs one finding id, e.g. explain KAFKA_WINDOW_SCALING_OFF");
      printIds(types, err);
      return DoctorCommand.EXIT_USAGE;
    }
    String id = args[1].trim().toUpperCase(Locale.ROOT);
    Optional<FindingType> type = types.stream().filter(t -> t.id().equals(id)).findFirst();
    if (type.isEmpty()) {
      err.println("faultline: no finding with id '" + args[1] + "'");
      printIds(types, err);
      return DoctorCommand.EXIT_USAGE;
    }
    out.print(FindingExplanation.of(type.get()));
    return 0;
  }

  private static void printIds(List<FindingType> types, PrintStream err) {
    err.println("Known finding ids:");
    types.forEach(t -> err.println("  " + t.id()));
  }
}
