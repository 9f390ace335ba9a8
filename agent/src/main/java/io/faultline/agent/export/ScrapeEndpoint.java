package io.faultline.agent.export;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The agent's HTTP endpoint: {@code /metrics} (Prometheus text, or protobuf when the scraper asks
 * for it) and, as configured, {@code /faultline/findings}, {@code /faultline/agent} and the status
 * page at {@code /}. Served by {@link HttpLoop}, whose threads are daemons, so it never keeps the
 * application's JVM alive, and whose limits keep one slow or idle client from delaying a scrape.
 */
public final class ScrapeEndpoint implements AutoCloseable {

  /**
   * One rendered page.
   *
   * @param contentType its content type
   * @param body its bytes
   */
  public record Page(String contentType, byte[] body) {
    /** Requires both. */
    public Page {
      Objects.requireNonNull(contentType, "contentType");
      Objects.requireNonNull(body, "body");
    }
  }

  /**
   * One page: how it is rendered per request, from the request's {@code Accept} header (null when
   * absent), and whether only clients on this host may read it.
   */
  public record Route(Function<String, Page> render, boolean loopbackOnly) {
    /** Requires a renderer. */
    public Route {
      Objects.requireNonNull(render, "render");
    }

    /** A page of one content type whose text is rendered per request. */
    public Route(String contentType, Supplier<String> text, boolean loopbackOnly) {
      this(textPage(contentType, text), loopbackOnly);
    }

    private static Function<String, Page> textPage(String contentType, Supplier<String> text) {
      Objects.requireNonNull(contentType, "contentType");
      Objects.requireNonNull(text, "text");
      return accept -> new Page(contentType, text.get().getBytes(StandardCharsets.UTF_8));
    }
  }

  private final HttpLoop loop;

  private ScrapeEndpoint(HttpLoop loop) {
    this.loop = loop;
  }

  /**
   * Binds {@code host:port} and serves {@code routes} (exact paths, query ignored; any other path
   * answers 404). With a {@code token}, every request must carry it. Throws {@link IOException}
   * when the address cannot be bound.
   */
  public static ScrapeEndpoint start(
      String host, int port, Map<String, Route> routes, BearerToken token) throws IOException {
    return start(new InetSocketAddress(host, port), routes, token, HttpLoop.Limits.DEFAULT);
  }

  static ScrapeEndpoint start(
      InetSocketAddress address,
      Map<String, Route> routes,
      BearerToken token,
      HttpLoop.Limits limits)
      throws IOException {
    if (address.isUnresolved()) {
      throw new IOException("cannot resolve " + address.getHostString());
    }
    return new ScrapeEndpoint(HttpLoop.start(address, new EndpointRouter(routes, token), limits));
  }

  /** The bound port (useful with port 0 in tests). */
  public int port() {
    return loop.port();
  }

  /** Stops serving; on return the port is free and the endpoint's threads have ended. */
  @Override
  public void close() {
    loop.close();
  }
}
