package io.faultline.core.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonWriterTest {

  @Test
  void escapesQuotesBackslashesAndControlCharacters() {
    assertThat(JsonWriter.write("a\"b\\c\nd\te\u0001f\u2028"))
        .isEqualTo("\"a\\\"b\\\\c\\nd\\te\\u0001f\\u2028\"");
  }

  @Test
  void writesNestedStructuresInOrder() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("n", 3L);
    m.put("d", 0.5);
    m.put("b", true);
    m.put("nil", null);
    m.put("list", Arrays.asList(1, "x", List.of()));
    m.put("nan", Double.NaN);
    m.put("k\"ey", Map.of());
    assertThat(JsonWriter.write(m))
        .isEqualTo(
            "{\"n\":3,\"d\":0.5,\"b\":true,\"nil\":null,\"list\":[1,\"x\",[]],\"nan\":\"NaN\","
                + "\"k\\\"ey\":{}}");
  }
}
