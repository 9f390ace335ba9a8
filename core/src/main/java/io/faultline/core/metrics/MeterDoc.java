package io.faultline.core.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import java.util.regex.Pattern;

/**
 * The declaration of one meter, made once in code: name, type, base unit, tag keys, description and
 * the feature that registers it. Modules publish theirs through a {@link MeterCatalog}, which is
 * how {@code docs/metrics.md} is generated; and they register the meter through the builder methods
 * here, so the registered name, unit and description are the declared ones.
 *
 * @param name lowercase dotted Micrometer name, e.g. {@code faultline.findings.active}
 * @param type what kind of meter it is
 * @param baseUnit the Micrometer base unit ({@code findings}, {@code bytes}, {@code seconds}...)
 * @param tagKeys the tag keys every registration carries, in order; their values must come from
 *     small fixed sets
 * @param description what it measures, one sentence; becomes the meter's description
 * @param feature the feature that registers it
 */
public record MeterDoc(
    String name,
    Type type,
    String baseUnit,
    List<String> tagKeys,
    String description,
    String feature) {

  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]*(\\.[a-z0-9_]+)*");

  /** The kinds of meter Faultline registers. */
  public enum Type {
    /** A monotonically increasing count ({@link Counter} or {@link FunctionCounter}). */
    COUNTER,
    /** A value that goes up and down, sampled when read. */
    GAUGE,
    /** Durations, as count, total and maximum (and histogram when enabled). */
    TIMER,
    /** Non-time amounts, as count, total and maximum. */
    DISTRIBUTION_SUMMARY
  }

  /** Validates the declaration; a malformed one is a programming error caught by the first test. */
  public MeterDoc {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(baseUnit, "baseUnit");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(feature, "feature");
    tagKeys = List.copyOf(tagKeys);
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("meter name must be lowercase and dotted: " + name);
    }
    if (description.isBlank()) {
      throw new IllegalArgumentException("meter " + name + " needs a description");
    }
  }

  // equals and hashCode written out: a record's generated ones bootstrap method handles at their
  // first call, which the agent's start paid for (its meters are declared in sets).
  @Override
  public boolean equals(Object o) {
    return o instanceof MeterDoc d
        && d.name.equals(name)
        && d.type == type
        && d.baseUnit.equals(baseUnit)
        && d.tagKeys.equals(tagKeys)
        && d.description.equals(description)
        && d.feature.equals(feature);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, type, baseUnit, tagKeys, description, feature);
  }

  /** The declared tag keys paired with {@code values}, which must be one per key, in order. */
  public Tags tags(String... values) {
    if (values.length != tagKeys.size()) {
      throw new IllegalArgumentException(
          "meter " + name + " is declared with tags " + tagKeys + ", got " + values.length);
    }
    Tags tags = Tags.empty();
    for (int i = 0; i < values.length; i++) {
      tags = tags.and(tagKeys.get(i), values[i]);
    }
    return tags;
  }

  /** A gauge builder with the declared name, description and base unit. */
  public <T> Gauge.Builder<T> gauge(T object, ToDoubleFunction<T> value) {
    expect(Type.GAUGE);
    return Gauge.builder(name, object, value).description(description).baseUnit(baseUnit);
  }

  /** A function-counter builder (counting kept elsewhere) with the declared fields. */
  public <T> FunctionCounter.Builder<T> functionCounter(T object, ToDoubleFunction<T> count) {
    expect(Type.COUNTER);
    return FunctionCounter.builder(name, object, count).description(description).baseUnit(baseUnit);
  }

  /** A counter builder with the declared fields. */
  public Counter.Builder counter() {
    expect(Type.COUNTER);
    return Counter.builder(name).description(description).baseUnit(baseUnit);
  }

  /** A timer builder with the declared fields (a timer's unit is always time). */
  public Timer.Builder timer() {
    expect(Type.TIMER);
    return Timer.builder(name).description(description);
  }

  /** A distribution-summary builder with the declared fields. */
  public DistributionSummary.Builder summary() {
    expect(Type.DISTRIBUTION_SUMMARY);
    return DistributionSummary.builder(name).description(description).baseUnit(baseUnit);
  }

  private void expect(Type wanted) {
    if (type != wanted) {
      throw new IllegalStateException(
          "meter " + name + " is declared as " + type + ", not " + wanted);
    }
  }
}
