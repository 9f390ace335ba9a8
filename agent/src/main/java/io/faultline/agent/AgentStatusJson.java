package io.faultline.agent;

import io.faultline.agent.instrumentation.AgentErrors;
import io.faultline.agent.instrumentation.InstalledModule;
import io.faultline.core.host.JsonWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The agent's own state as the JSON served at {@code /faultline/agent}. */
final class AgentStatusJson {

  private AgentStatusJson() {}

  static String of(AgentRuntime runtime) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("version", AgentVersion.get());
    root.put("java", System.getProperty("java.version"));
    root.put("errors", AgentErrors.total());
    root.put("socketFds", runtime.socketFdsUnavailable().orElse("available"));
    AgentStartup startup = runtime.startup();
    Map<String, Object> start = new LinkedHashMap<>();
    start.put("applicationMillis", startup.applicationNanos() / 1_000_000.0);
    start.put("lateWoven", startup.lateWoven());
    start.put("installMillis", startup.installMillis());
    root.put("startup", start);
    List<Map<String, Object>> modules = new ArrayList<>();
    for (InstalledModule m : runtime.modules()) {
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("name", m.name());
      item.put("state", m.moduleSwitch().state().name());
      item.put("reason", m.moduleSwitch().reason());
      item.put("woven", new ArrayList<>(m.wovenTypes()));
      item.put("errors", m.errors());
      modules.add(item);
    }
    root.put("modules", modules);
    List<String> problems = new ArrayList<>();
    runtime.config().problems().forEach(p -> problems.add(p.toLine()));
    root.put("configProblems", problems);
    return JsonWriter.write(root);
  }
}
