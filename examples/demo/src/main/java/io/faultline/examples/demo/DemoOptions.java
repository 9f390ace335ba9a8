package io.faultline.examples.demo;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo's command line.
 *
 * @param scenes the scene names asked for ({@code --scene}, repeatable); empty for all
 * @param noWait whether to end at once after the summary instead of keeping the status page open
 * @param recordMetrics where to save a scrape of {@code /metrics} every second, or null
 * @param help whether to print the help and stop
 */
record DemoOptions(List<String> scenes, boolean noWait, Path recordMetrics, boolean help) {

  /** Parses {@code args}; throws {@link IllegalArgumentException} with the problem and the fix. */
  static DemoOptions parse(String[] args) {
    List<String> scenes = new ArrayList<>();
    boolean noWait = false;
    Path record = null;
    boolean help = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--scene" -> scenes.add(value(args, ++i, a));
        case "--no-wait" -> noWait = true;
        case "--record-metrics" -> record = Path.of(value(args, ++i, a));
        case "--help", "-h" -> help = true;
        default -> {
          if (a.startsWith("--scene=")) {
            scenes.add(a.substring("--scene=".length()));
          } else if (a.startsWith("--record-metrics=")) {
            record = Path.of(a.substring("--record-metrics=".length()));
          } else {
            throw new IllegalArgumentException("unknown argument '" + a + "'; see ./demo --help");
          }
        }
      }
    }
    return new DemoOptions(List.copyOf(scenes), noWait, record, help);
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length || args[i].startsWith("--")) {
      throw new IllegalArgumentException(option + " needs a value; see ./demo --help");
    }
    return args[i];
  }

  static String help(List<Scene> all) {
    StringBuilder out = new StringBuilder();
    out.append("usage: ./demo [--scene NAME]... [--no-wait] [--record-metrics DIR]\n\n");
    out.append(
        "Starts an embedded PostgreSQL and two embedded Kafka brokers, then a small service with\n");
    out.append(
        "the Faultline agent that repeats each incident of docs/incidents.md on purpose, and\n");
    out.append("prints what Faultline found.\n\n");
    out.append("  --scene NAME           run only this scene (repeatable); the scenes:\n");
    for (Scene s : all) {
      out.append(String.format("      %-18s %s%n", s.name(), s.title()));
    }
    out.append(
        "  --no-wait              end after the summary instead of keeping the status page\n");
    out.append("                         open (also when standard input is not a terminal)\n");
    out.append(
        "  --record-metrics DIR   save the service's /metrics every second as DIR/<epoch-ms>.prom\n");
    out.append("  --help                 this text\n\n");
    out.append("Exit status: 0 when every scene that ran found what it expected, 1 otherwise,\n");
    out.append("2 for a usage error.\n");
    return out.toString();
  }
}
