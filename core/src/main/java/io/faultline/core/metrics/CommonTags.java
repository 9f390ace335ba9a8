package io.faultline.core.metrics;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.Collection;
import java.util.Objects;

/**
 * Checks the extra tags a builder or binder adds to every meter it registers (so two instances on
 * one registry, e.g. {@code db=orders} and {@code db=billing}, are two series, not one silently
 * kept). Input is refused at once, naming the field, rather than at registration.
 */
public final class CommonTags {

  private CommonTags() {}

  /**
   * {@code keyValues} as tags: key, value, key, value...
   *
   * @throws NullPointerException when {@code keyValues} or one of them is null
   * @throws IllegalArgumentException on an odd count or a blank key
   */
  public static Tags of(String field, String... keyValues) {
    Objects.requireNonNull(keyValues, field);
    if (keyValues.length % 2 != 0) {
      throw new IllegalArgumentException(
          field + ": key/value pairs expected, got an odd count " + keyValues.length);
    }
    Tags tags = Tags.empty();
    for (int i = 0; i < keyValues.length; i += 2) {
      tags = tags.and(tag(field, keyValues[i], keyValues[i + 1]));
    }
    return tags;
  }

  /**
   * {@code tags} checked: none null, no blank key.
   *
   * @throws NullPointerException when {@code tags} or one of them is null
   */
  public static Tags of(String field, Iterable<Tag> tags) {
    Objects.requireNonNull(tags, field);
    Tags checked = Tags.empty();
    for (Tag tag : tags) {
      Objects.requireNonNull(tag, field + " contains null");
      checked = checked.and(tag(field, tag.getKey(), tag.getValue()));
    }
    return checked;
  }

  /**
   * {@code tags} when none of its keys is a tag key declared by one of {@code meters} (the binder
   * sets those itself, and Micrometer would keep one value silently).
   *
   * @throws IllegalArgumentException naming the key and the meter that declares it
   */
  public static Tags refuseDeclared(String field, Tags tags, Collection<MeterDoc> meters) {
    for (Tag tag : tags) {
      for (MeterDoc meter : meters) {
        if (meter.tagKeys().contains(tag.getKey())) {
          throw new IllegalArgumentException(
              field
                  + ": tag key '"
                  + tag.getKey()
                  + "' is set by the meter "
                  + meter.name()
                  + " itself; pick another key, e.g. db");
        }
      }
    }
    return tags;
  }

  private static Tag tag(String field, String key, String value) {
    Objects.requireNonNull(key, field + ": null key");
    Objects.requireNonNull(value, field + ": null value for key " + key);
    if (key.isBlank()) {
      throw new IllegalArgumentException(field + ": blank key");
    }
    return Tag.of(key, value);
  }
}
