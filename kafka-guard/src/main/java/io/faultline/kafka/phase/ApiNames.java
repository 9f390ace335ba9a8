package io.faultline.kafka.phase;

import java.util.Locale;

/**
 * {@code api} tag values: the lowercase {@code ApiKeys} constant name ({@code produce}, {@code
 * fetch}, {@code metadata}), looked up once per id. kafka-clients is only read when it is on the
 * class path; an id it does not know becomes {@code api_<id>}.
 */
public final class ApiNames {

  private static final int MAX_ID = 256;
  private static final String[] NAMES = new String[MAX_ID];

  private ApiNames() {}

  /** The tag value of API key {@code id}. */
  public static String of(short id) {
    if (id < 0 || id >= MAX_ID) {
      return "api_" + id;
    }
    String name = NAMES[id];
    if (name == null) {
      name = lookUp(id);
      NAMES[id] = name; // a benign race: every thread computes the same string
    }
    return name;
  }

  private static String lookUp(short id) {
    try {
      return org.apache.kafka.common.protocol.ApiKeys.forId(id).name().toLowerCase(Locale.ROOT);
    } catch (RuntimeException | LinkageError e) {
      return "api_" + id;
    }
  }
}
