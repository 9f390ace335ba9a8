package io.faultline.agent.export;

import io.faultline.core.LogText;
import io.faultline.core.Loggers;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Decides each request: the method, the {@code Host} of a request that arrived over loopback, the
 * bearer token, the route and whether its client may see it; then renders it. A refusal never
 * echoes the request's text.
 */
final class EndpointRouter implements Function<HttpRequestHead, HttpResponse> {

  private static final System.Logger LOG = Loggers.get(EndpointRouter.class.getName());

  private static final Pattern IPV4_LOOPBACK =
      Pattern.compile("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
  private static final Pattern PORT = Pattern.compile(":\\d{1,5}");

  private final Map<String, ScrapeEndpoint.Route> routes;
  private final BearerToken token;
  private final String notFound;

  /** {@code token} null: no token required. */
  EndpointRouter(Map<String, ScrapeEndpoint.Route> routes, BearerToken token) {
    this.routes = Map.copyOf(routes);
    this.token = token;
    this.notFound =
        "faultline: no such page; this endpoint serves " + String.join(" ", routes.keySet()) + "\n";
  }

  @Override
  public HttpResponse apply(HttpRequestHead request) {
    if (!request.method().equals("GET") && !request.isHead()) {
      return HttpResponse.text(405, "faultline: only GET and HEAD\n").header("Allow", "GET, HEAD");
    }
    if (isLoopback(request.local()) && !isLoopbackHost(request.host())) {
      // A browser on this machine sent a request over loopback for another host name: a page
      // that re-pointed its own name at 127.0.0.1 (DNS rebinding) must not read the endpoint.
      return HttpResponse.text(
          421,
          "faultline: over loopback this endpoint answers to localhost, 127.0.0.1 and [::1]\n");
    }
    if (token != null && !token.matches(request.authorization())) {
      return HttpResponse.text(401, "faultline: a bearer token is required\n")
          .header("WWW-Authenticate", "Bearer realm=\"faultline\"");
    }
    ScrapeEndpoint.Route route = routes.get(request.path());
    if (route == null) {
      return HttpResponse.text(404, notFound);
    }
    if (route.loopbackOnly() && !isLoopback(request.remote())) {
      return HttpResponse.text(
          403,
          "faultline: this page is served to clients on this host only (prometheus.findings,"
              + " prometheus.status-page)\n");
    }
    ScrapeEndpoint.Page page;
    try {
      page = route.render().apply(request.accept());
    } catch (RuntimeException | LinkageError e) {
      LOG.log(
          Level.WARNING, "faultline: rendering " + LogText.oneLine(request.path()) + " failed", e);
      return HttpResponse.text(500, "faultline: rendering this page failed; see the log\n");
    }
    HttpResponse response = new HttpResponse(200, page.contentType(), page.body());
    if (page.contentType().startsWith("text/html")) {
      response.header("Content-Security-Policy", HttpResponse.PAGE_POLICY);
    }
    return response;
  }

  private static boolean isLoopback(InetAddress address) {
    return address != null && address.isLoopbackAddress();
  }

  /** {@code localhost}, a {@code 127.x.y.z} or {@code [::1]}, with or without a port. */
  static boolean isLoopbackHost(String host) {
    if (host == null) {
      return false;
    }
    String h = host.toLowerCase(Locale.ROOT);
    String name;
    String rest;
    if (h.startsWith("[")) {
      int close = h.indexOf(']');
      if (close < 0) {
        return false;
      }
      name = h.substring(0, close + 1);
      rest = h.substring(close + 1);
    } else {
      int colon = h.indexOf(':');
      name = colon < 0 ? h : h.substring(0, colon);
      rest = colon < 0 ? "" : h.substring(colon);
    }
    if (!rest.isEmpty() && !PORT.matcher(rest).matches()) {
      return false;
    }
    return name.equals("localhost")
        || name.equals("[::1]")
        || IPV4_LOOPBACK.matcher(name).matches();
  }
}
