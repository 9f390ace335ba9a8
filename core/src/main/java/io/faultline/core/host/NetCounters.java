package io.faultline.core.host;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The kernel's protocol counters from {@code /proc/net/netstat} and {@code /proc/net/snmp}, keyed
 * {@code Group.Name} ({@code TcpExt.SyncookiesSent}, {@code Tcp.PassiveOpens}). Both files come in
 * pairs of lines: a header line of names and a line of values with the same prefix.
 */
public final class NetCounters {

  private final Map<String, Long> values;

  private NetCounters(Map<String, Long> values) {
    this.values = Collections.unmodifiableMap(values);
  }

  /** No counters (the files could not be read). */
  public static NetCounters empty() {
    return new NetCounters(new LinkedHashMap<>());
  }

  /** Parses the text of one or more such files, concatenated. */
  public static NetCounters parse(String... texts) {
    Map<String, Long> values = new LinkedHashMap<>();
    for (String text : texts) {
      String[] lines = text.split("\n");
      for (int i = 0; i + 1 < lines.length; i++) {
        String[] names = lines[i].trim().split("\\s+");
        String[] numbers = lines[i + 1].trim().split("\\s+");
        if (names.length < 2 || !names[0].endsWith(":") || !names[0].equals(numbers[0])) {
          continue;
        }
        String group = names[0].substring(0, names[0].length() - 1);
        for (int k = 1; k < Math.min(names.length, numbers.length); k++) {
          try {
            values.put(group + "." + names[k], Long.parseLong(numbers[k]));
          } catch (NumberFormatException e) {
            // a name line paired with the next group's name line: skip
          }
        }
        i++;
      }
    }
    return new NetCounters(values);
  }

  /** Reads {@code netstat} and {@code snmp} from {@code proc}'s net directory. */
  public static NetCounters read(ProcFs proc) {
    return parse(proc.net("netstat").orElse(""), proc.net("snmp").orElse(""));
  }

  /** One counter, e.g. {@code get("TcpExt.SyncookiesSent")}. */
  public OptionalLong get(String key) {
    Long v = values.get(key);
    return v == null ? OptionalLong.empty() : OptionalLong.of(v);
  }

  /** All counters, in file order. */
  public Map<String, Long> asMap() {
    return values;
  }

  /** Whether nothing was read. */
  public boolean isEmpty() {
    return values.isEmpty();
  }
}
