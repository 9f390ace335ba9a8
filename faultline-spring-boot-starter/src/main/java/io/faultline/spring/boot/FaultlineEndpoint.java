package io.faultline.spring.boot;

import io.faultline.core.finding.Findings;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code /actuator/faultline}: the active findings with their evidence and advice. Exposed over
 * HTTP like any endpoint: {@code management.endpoints.web.exposure.include=health,faultline}.
 */
@Endpoint(id = "faultline")
public class FaultlineEndpoint {

  private final Findings findings;

  FaultlineEndpoint(Findings findings) {
    this.findings = findings;
  }

  /** The active findings, newest state of each. */
  @ReadOperation
  public Map<String, Object> findings() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("findings", FindingsView.active(findings));
    return out;
  }
}
