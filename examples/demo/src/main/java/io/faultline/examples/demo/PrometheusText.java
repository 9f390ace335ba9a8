package io.faultline.examples.demo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/** Reads samples out of a Prometheus text-format scrape. */
final class PrometheusText {

  /** One sample: metric name, labels, value. */
  record Sample(String name, Map<String, String> labels, double value) {}

  private final List<Sample> samples;

  private PrometheusText(List<Sample> samples) {
    this.samples = samples;
  }

  /** Parses a scrape; comment lines and lines it does not understand are skipped. */
  static PrometheusText parse(String scrape) {
    List<Sample> samples = new ArrayList<>();
    for (String line : scrape.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int brace = line.indexOf('{');
      int space = line.lastIndexOf(' ');
      if (space < 0) {
        continue;
      }
      String name;
      Map<String, String> labels = new LinkedHashMap<>();
      if (brace >= 0 && brace < space) {
        name = line.substring(0, brace);
        int close = line.lastIndexOf('}');
        for (String pair : splitLabels(line.substring(brace + 1, close))) {
          int eq = pair.indexOf('=');
          if (eq > 0) {
            labels.put(pair.substring(0, eq), pair.substring(eq + 2, pair.length() - 1));
          }
        }
      } else {
        name = line.substring(0, space);
      }
      try {
        samples.add(new Sample(name, labels, Double.parseDouble(line.substring(space + 1))));
      } catch (NumberFormatException e) {
        // a sample with a timestamp or a value we do not read: not needed by the demo
      }
    }
    return new PrometheusText(samples);
  }

  private static List<String> splitLabels(String body) {
    List<String> pairs = new ArrayList<>();
    boolean quoted = false;
    int start = 0;
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c == '"' && (i == 0 || body.charAt(i - 1) != '\\')) {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        pairs.add(body.substring(start, i));
        start = i + 1;
      }
    }
    if (start < body.length()) {
      pairs.add(body.substring(start));
    }
    return pairs;
  }

  /** Samples named {@code name} whose labels include every entry of {@code labels}. */
  List<Sample> find(String name, Map<String, String> labels) {
    return samples.stream()
        .filter(s -> s.name().equals(name))
        .filter(s -> s.labels().entrySet().containsAll(labels.entrySet()))
        .toList();
  }

  /** The sum of those samples, empty when there is none. */
  OptionalDouble sum(String name, Map<String, String> labels) {
    List<Sample> found = find(name, labels);
    return found.isEmpty()
        ? OptionalDouble.empty()
        : OptionalDouble.of(found.stream().mapToDouble(Sample::value).sum());
  }

  /** The largest of those samples, empty when there is none. */
  OptionalDouble max(String name, Map<String, String> labels) {
    return find(name, labels).stream().mapToDouble(Sample::value).max();
  }
}
