package io.faultline.agent.export;

import io.faultline.agent.AgentConfigKeys;
import io.faultline.core.config.ConfigKey;
import io.faultline.core.config.ConfigProblem;
import io.faultline.core.config.EffectiveSetting;
import io.faultline.core.config.FaultlineConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Starts the agent's endpoint as configured: which pages it serves and to whom, and the bearer
 * token. Every problem is one stderr line and the application goes on; a token that was asked for
 * but cannot be had keeps the endpoint closed rather than open.
 */
public final class EndpointSetup {

  /** Longest token file read; a token is a line, a bigger file is a mistake. */
  private static final long MAX_TOKEN_FILE = 64 * 1024;

  /**
   * The pages the endpoint serves, each rendered per request; {@code metrics} from the request's
   * {@code Accept} header (null when absent), which may ask for protobuf.
   */
  public record Pages(
      Function<String, ScrapeEndpoint.Page> metrics,
      Supplier<String> findingsJson,
      Supplier<String> agentJson,
      Supplier<String> statusPage) {
    /** Requires every page. */
    public Pages {
      Objects.requireNonNull(metrics, "metrics");
      Objects.requireNonNull(findingsJson, "findingsJson");
      Objects.requireNonNull(agentJson, "agentJson");
      Objects.requireNonNull(statusPage, "statusPage");
    }
  }

  /** Why the endpoint stays closed: one configuration problem. */
  private static final class Closed extends Exception {
    private static final long serialVersionUID = 1L;

    final transient ConfigProblem problem;

    Closed(ConfigProblem problem) {
      super(problem.toLine(), null, false, false);
      this.problem = problem;
    }
  }

  private EndpointSetup() {}

  /**
   * Starts the endpoint {@code config} asks for; null when it is off or cannot start (said on
   * {@code err}).
   */
  public static ScrapeEndpoint start(FaultlineConfig config, Pages pages, PrintStream err) {
    if (!config.isFeatureEnabled(AgentConfigKeys.PROMETHEUS)) {
      return null;
    }
    int port = config.get(AgentConfigKeys.PROMETHEUS_PORT);
    String host = config.get(AgentConfigKeys.PROMETHEUS_HOST);
    if (port < 0 || port > 65535) {
      err.println(
          "faultline: prometheus.port="
              + port
              + " is not a port (0 turns the endpoint off, 1-65535 is a port); the endpoint is"
              + " off");
      return null;
    }
    if (port == 0) {
      return null;
    }
    BearerToken token;
    try {
      token = token(config);
    } catch (Closed closed) {
      err.println(closed.problem.toLine());
      return null;
    }
    try {
      return ScrapeEndpoint.start(host, port, routes(config, pages), token);
    } catch (IOException | RuntimeException e) {
      err.println(
          "faultline: cannot serve /metrics and the status page on "
              + host
              + ":"
              + port
              + " ("
              + e
              + "); set prometheus.port to a free port, or 0 to turn the endpoint off. The"
              + " agent goes on without it.");
      return null;
    }
  }

  /** The pages {@code config} lets the endpoint serve, in the order the 404 lists them. */
  static Map<String, ScrapeEndpoint.Route> routes(FaultlineConfig config, Pages pages) {
    Map<String, ScrapeEndpoint.Route> routes = new LinkedHashMap<>();
    routes.put("/metrics", new ScrapeEndpoint.Route(pages.metrics(), false));
    Exposure findings = config.get(AgentConfigKeys.PROMETHEUS_FINDINGS);
    if (findings != Exposure.OFF) {
      routes.put(
          "/faultline/findings",
          new ScrapeEndpoint.Route(
              "application/json", pages.findingsJson(), findings == Exposure.LOOPBACK));
    }
    Exposure status = config.get(AgentConfigKeys.PROMETHEUS_STATUS_PAGE);
    if (status != Exposure.OFF) {
      boolean loopbackOnly = status == Exposure.LOOPBACK;
      routes.put(
          "/faultline/agent",
          new ScrapeEndpoint.Route("application/json", pages.agentJson(), loopbackOnly));
      routes.put(
          "/",
          new ScrapeEndpoint.Route("text/html; charset=utf-8", pages.statusPage(), loopbackOnly));
    }
    return routes;
  }

  /** The configured token, null for none. */
  static BearerToken token(FaultlineConfig config) throws Closed {
    String value = config.get(AgentConfigKeys.PROMETHEUS_TOKEN);
    String file = config.get(AgentConfigKeys.PROMETHEUS_TOKEN_FILE);
    if (!value.isEmpty() && !file.isEmpty()) {
      throw closed(
          config,
          AgentConfigKeys.PROMETHEUS_TOKEN_FILE,
          "prometheus.token and prometheus.token-file are both set; set one of them");
    }
    if (!value.isEmpty()) {
      return checked(config, AgentConfigKeys.PROMETHEUS_TOKEN, value, "prometheus.token");
    }
    if (file.isEmpty()) {
      return null;
    }
    String text;
    try {
      Path path = Path.of(file);
      if (Files.size(path) > MAX_TOKEN_FILE) {
        throw closed(
            config,
            AgentConfigKeys.PROMETHEUS_TOKEN_FILE,
            "the token file '" + file + "' is larger than 64 KiB; it should hold one token");
      }
      text = Files.readString(path, StandardCharsets.UTF_8).strip();
    } catch (IOException | InvalidPathException | SecurityException e) {
      throw closed(
          config,
          AgentConfigKeys.PROMETHEUS_TOKEN_FILE,
          "cannot read the token file '" + file + "' (" + e.getClass().getSimpleName() + ")");
    }
    return checked(
        config, AgentConfigKeys.PROMETHEUS_TOKEN_FILE, text, "the token file '" + file + "'");
  }

  /** A token a client can send: not empty, no space or control character inside. */
  private static BearerToken checked(
      FaultlineConfig config, ConfigKey<?> key, String token, String what) throws Closed {
    if (token.isEmpty()) {
      throw closed(config, key, what + " is empty");
    }
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (Character.isWhitespace(c) || Character.isISOControl(c)) {
        throw closed(
            config, key, what + " holds a space, line break or control character inside the token");
      }
    }
    return BearerToken.of(token);
  }

  private static Closed closed(FaultlineConfig config, ConfigKey<?> key, String what) {
    String source =
        config.effective().stream()
            .filter(s -> s.key().equals(key.name()))
            .map(EffectiveSetting::source)
            .findFirst()
            .orElse("configuration");
    return new Closed(
        new ConfigProblem(
            ConfigProblem.Level.ERROR,
            key.name(),
            source,
            what
                + ". The endpoint is not started, so nothing is served without the token; fix it"
                + " and restart the application."));
  }
}
