package io.faultline.it.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The CPU time the processes of one name on this host have used, to the nanosecond ({@code
 * /proc/<pid>/schedstat}'s first field): a benchmark's server processes, which run in a container
 * and so are this host's processes too. The processes are found once, when this is made; one that
 * starts later is not counted, one that ended counts as it last read.
 */
final class ProcessesCpu {

  private final List<Path> schedstats;
  private final long[] last;

  private ProcessesCpu(List<Path> schedstats) {
    this.schedstats = schedstats;
    this.last = new long[schedstats.size()];
  }

  /** The processes whose {@code comm} is {@code name} now; none where /proc has no schedstat. */
  static ProcessesCpu named(String name) {
    List<Path> found = new ArrayList<>();
    try (Stream<Path> pids = Files.list(Path.of("/proc"))) {
      for (Path pid : (Iterable<Path>) pids::iterator) {
        if (pid.getFileName().toString().chars().allMatch(Character::isDigit)) {
          try {
            if (Files.readString(pid.resolve("comm")).strip().equals(name)
                && Files.isReadable(pid.resolve("schedstat"))) {
              found.add(pid.resolve("schedstat"));
            }
          } catch (IOException gone) {
            // the process ended meanwhile
          }
        }
      }
    } catch (IOException noProc) {
      // not Linux: nothing to count
    }
    return new ProcessesCpu(found);
  }

  /** How many processes are counted. */
  int count() {
    return schedstats.size();
  }

  /** Their CPU time so far, in nanoseconds. */
  long nanos() {
    long sum = 0;
    for (int i = 0; i < schedstats.size(); i++) {
      try {
        String line = Files.readString(schedstats.get(i));
        last[i] = Long.parseLong(line.substring(0, line.indexOf(' ')));
      } catch (IOException | RuntimeException gone) {
        // ended: its last reading stands
      }
      sum += last[i];
    }
    return sum;
  }
}
