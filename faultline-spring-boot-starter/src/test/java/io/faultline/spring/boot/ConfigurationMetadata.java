package io.faultline.spring.boot;

import io.faultline.core.config.ConfigKey;
import io.faultline.core.config.ConfigSources;
import java.util.List;

/**
 * Writes Spring Boot's configuration metadata ({@code META-INF/spring-configuration-metadata.json},
 * what IDEs complete {@code application.properties} from) for the starter's keys: name, Java type,
 * description and default come from each {@link ConfigKey}, so the metadata is the key catalog's.
 */
final class ConfigurationMetadata {

  private ConfigurationMetadata() {}

  static String json(List<ConfigKey<?>> keys) {
    StringBuilder out = new StringBuilder();
    out.append("{\n  \"groups\": [\n");
    out.append("    {\n");
    field(out, "name", "faultline", true);
    field(out, "description", "Faultline: the keys of docs/configuration.md.", false);
    out.append("    }\n  ],\n  \"properties\": [\n");
    for (int i = 0; i < keys.size(); i++) {
      ConfigKey<?> key = keys.get(i);
      out.append("    {\n");
      field(out, "name", ConfigSources.SYSTEM_PROPERTY_PREFIX + key.name(), true);
      field(out, "type", javaType(key.defaultValue()), true);
      field(out, "description", key.description(), true);
      if (key.defaultValue() instanceof Boolean || key.defaultValue() instanceof Number) {
        // JSON's own booleans and numbers, as Spring's own metadata writes them.
        out.append("      \"defaultValue\": ").append(key.defaultText()).append('\n');
      } else {
        field(out, "defaultValue", key.defaultText(), false);
      }
      out.append(i + 1 < keys.size() ? "    },\n" : "    }\n");
    }
    out.append("  ]\n}\n");
    return out.toString();
  }

  private static String javaType(Object value) {
    if (value instanceof Enum<?> constant) {
      return constant.getDeclaringClass().getName();
    }
    return value.getClass().getName();
  }

  private static void field(StringBuilder out, String name, String value, boolean more) {
    out.append("      \"").append(name).append("\": \"");
    for (char c : value.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append(more ? "\",\n" : "\"\n");
  }
}
