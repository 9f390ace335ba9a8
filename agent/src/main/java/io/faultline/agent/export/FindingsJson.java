package io.faultline.agent.export;

import io.faultline.core.finding.Finding;
import io.faultline.core.host.JsonWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The active findings as the JSON served at {@code /faultline/findings}. */
public final class FindingsJson {

  private FindingsJson() {}

  /**
   * {@code {"findings":[{"id":..,"severity":..,"subject":..,"title":..,"message":..,
   * "evidence":{..},"observedAt":..,"remediation":..,"docs":..}]}}, most severe first.
   */
  public static String of(List<Finding> findings) {
    List<Map<String, Object>> items = new ArrayList<>();
    for (Finding f : findings) {
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("id", f.id());
      item.put("severity", f.severity().name());
      item.put("subject", f.subject());
      item.put("title", f.type().title());
      item.put("message", f.message());
      item.put("evidence", f.evidence());
      item.put("observedAt", f.observedAt().toString());
      item.put("remediation", f.type().remediation());
      item.put("docs", f.type().docsAnchor());
      items.add(item);
    }
    return JsonWriter.write(Map.of("findings", items));
  }
}
