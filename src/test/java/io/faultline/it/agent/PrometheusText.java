package io.faultline.it.agent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The samples of a Prometheus text exposition, enough to find a meter by name and labels. */
record PrometheusText(List<Sample> samples) {

  private static final Pattern LINE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})?\\s+(\\S+)$");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  /** One sample line. */
  record Sample(String name, Map<String, String> labels, double value) {
    boolean has(Map<String, String> wanted) {
      return wanted.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }
  }

  static PrometheusText parse(String text) {
    List<Sample> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = LINE.matcher(line.strip());
      if (!m.matches()) {
        continue;
      }
      Map<String, String> labels = new LinkedHashMap<>();
      if (m.group(3) != null) {
        Matcher l = LABEL.matcher(m.group(3));
        while (l.find()) {
          labels.put(l.group(1), l.group(2));
        }
      }
      double value;
      try {
        value = Double.parseDouble(m.group(4));
      } catch (NumberFormatException e) {
        continue;
      }
      out.add(new Sample(m.group(1), labels, value));
    }
    return new PrometheusText(out);
  }

  /** The samples named {@code name} whose labels include {@code labels}. */
  List<Sample> find(String name, Map<String, String> labels) {
    return samples.stream().filter(s -> s.name().equals(name) && s.has(labels)).toList();
  }

  /** The sum of those samples' values (0 when none). */
  double sum(String name, Map<String, String> labels) {
    return find(name, labels).stream().mapToDouble(Sample::value).sum();
  }

  /** Names starting with {@code prefix}, for failure messages. */
  List<String> namesStartingWith(String prefix) {
    return samples.stream().map(Sample::name).filter(n -> n.startsWith(prefix)).distinct().toList();
  }
}
