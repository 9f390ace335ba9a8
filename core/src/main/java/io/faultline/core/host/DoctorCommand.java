package io.faultline.core.host;

import io.faultline.core.config.ConfigKey;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * {@code faultline doctor}: reads the host's kernel settings and counters and prints what puts the
 * services on it at risk. Exit code 0 all clear, 1 warnings, 2 critical, 64 bad usage.
 */
public final class DoctorCommand {

  /** Exit code for a command-line mistake (BSD {@code EX_USAGE}). */
  public static final int EXIT_USAGE = 64;

  static final String USAGE =
      String.join(
          "\n",
          "Usage: doctor [options]",
          "",
          "Reads kernel settings and counters (/proc, /sys) and reports the risks behind",
          "Faultline's incident reports: SYN cookies, lost window scaling, listen queue",
          "overflows, ephemeral port exhaustion, socket buffers, receive steering.",
          "",
          "Options:",
          "  --sample DURATION           take two samples DURATION apart (e.g. 5s) so the rate",
          "                              checks can judge; default: one sample",
          "  --json                      print JSON instead of the table",
          "  --root DIR                  read DIR/proc and DIR/sys instead of /proc and /sys",
          "  --net-pid PID               read /proc/net counters of process PID's network",
          "                              namespace (e.g. a container's)",
          "  --expected-connections N    connection burst to absorb (default "
              + HostConfigKeys.EXPECTED_CONNECTIONS.defaultText()
              + ")",
          "  --target-bdp SIZE           bandwidth-delay product to hold, e.g. 8MiB (default "
              + HostConfigKeys.TARGET_BDP.defaultText()
              + ")",
          "  --help                      this text",
          "",
          "Exit code: 0 all clear, 1 warnings, 2 critical, 64 usage error.",
          "");

  /** Runs the doctor on this host and exits with its code. */
  public static void main(String[] args) {
    System.exit(new DoctorCommand().run(args, System.out, System.err));
  }

  /** Runs with {@code args}, writing to {@code out} and {@code err}; returns the exit code. */
  public int run(String[] args, PrintStream out, PrintStream err) {
    DoctorOptions options = DoctorOptions.defaults();
    boolean json = false;
    Path root = null;
    Long netPid = null;
    try {
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        String value = null;
        int eq = arg.indexOf('=');
        if (arg.startsWith("--") && eq > 0) {
          value = arg.substring(eq + 1);
          arg = arg.substring(0, eq);
        }
        switch (arg) {
          case "--help", "-h" -> {
            out.print(USAGE);
            return 0;
          }
          case "--json" -> json = true;
          case "--sample" -> {
            value = value != null ? value : next(args, ++i, arg);
            options = options.withSample(parse(HostConfigKeys.SAMPLE, arg, value));
          }
          case "--root" -> {
            root = Paths.get(value != null ? value : next(args, ++i, arg));
            if (!Files.isDirectory(root)) {
              throw new UsageException("--root " + root + ": not a directory");
            }
          }
          case "--net-pid" -> {
            value = value != null ? value : next(args, ++i, arg);
            try {
              netPid = Long.parseLong(value);
            } catch (NumberFormatException e) {
              throw new UsageException("--net-pid: not a process id: " + value);
            }
          }
          case "--expected-connections" -> {
            value = value != null ? value : next(args, ++i, arg);
            options =
                options.withExpectedConnections(
                    parse(HostConfigKeys.EXPECTED_CONNECTIONS, arg, value));
          }
          case "--target-bdp" -> {
            value = value != null ? value : next(args, ++i, arg);
            options = options.withTargetBdpBytes(parse(HostConfigKeys.TARGET_BDP, arg, value));
          }
          default -> throw new UsageException("unknown option: " + args[i]);
        }
      }
    } catch (UsageException e) {
      err.println("doctor: " + e.getMessage());
      err.println();
      err.print(USAGE);
      return EXIT_USAGE;
    }
    ProcFs proc = root == null ? ProcFs.system() : ProcFs.at(root);
    if (netPid != null) {
      proc = proc.withNetworkNamespaceOf(netPid);
    }
    if (options.sampling() && !json) {
      out.println("sampling for " + HostConfigKeys.SAMPLE.type().format(options.sample()) + "...");
    }
    DoctorReport report;
    try {
      report = new HostDoctor(proc, options).examine();
    } catch (RuntimeException e) {
      err.println("doctor: could not examine " + proc + ": " + e);
      return 70; // EX_SOFTWARE
    }
    out.print(json ? ReportRenderer.json(report) + "\n" : ReportRenderer.table(report));
    return report.exitCode();
  }

  private static String next(String[] args, int i, String flag) {
    if (i >= args.length || args[i].startsWith("--")) {
      throw new UsageException(flag + " needs a value");
    }
    return args[i];
  }

  private static <T> T parse(ConfigKey<T> key, String flag, String value) {
    try {
      return key.type().parse(value);
    } catch (IllegalArgumentException e) {
      throw new UsageException(
          flag + " " + value + ": expected " + key.type().expected() + " (" + e.getMessage() + ")");
    }
  }

  /** A command-line mistake: message, usage, exit 64. */
  private static final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message, null, false, false);
    }
  }
}
