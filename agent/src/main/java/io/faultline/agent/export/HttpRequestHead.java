package io.faultline.agent.export;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The parts of a request's head the endpoint looks at: method, path (query dropped), and the {@code
 * Host}, {@code Authorization} and {@code Accept} headers, plus the addresses the connection came
 * from and arrived at. Other headers are read past and dropped.
 *
 * @param host the {@code Host} header, or null when absent
 * @param authorization the {@code Authorization} header, or null when absent
 * @param accept the {@code Accept} header (the last one), or null when absent
 */
record HttpRequestHead(
    String method,
    String path,
    String host,
    String authorization,
    String accept,
    InetAddress remote,
    InetAddress local) {

  /** Why a head could not be parsed; the message is fixed text, never the request's bytes. */
  static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Parses {@code length} bytes of {@code bytes}: the request line and header lines up to (not
   * including) the empty line. Lines end in CRLF or a bare LF.
   */
  static HttpRequestHead parse(byte[] bytes, int length, InetAddress remote, InetAddress local)
      throws Malformed {
    String text = new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
    String[] lines = text.split("\r?\n", -1);
    String[] requestLine = lines[0].split(" ", -1);
    if (requestLine.length != 3 || !requestLine[2].startsWith("HTTP/1.")) {
      throw new Malformed("malformed request line");
    }
    String method = requestLine[0];
    String target = requestLine[1];
    if (method.isEmpty() || !target.startsWith("/")) {
      throw new Malformed("malformed request line");
    }
    int query = target.indexOf('?');
    String path = query < 0 ? target : target.substring(0, query);
    String host = null;
    String authorization = null;
    String accept = null;
    for (int i = 1; i < lines.length; i++) {
      String line = lines[i];
      if (line.isEmpty()) {
        continue;
      }
      int colon = line.indexOf(':');
      if (colon <= 0) {
        throw new Malformed("malformed header line");
      }
      String name = line.substring(0, colon).toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).trim();
      if (name.equals("host")) {
        if (host != null) {
          throw new Malformed("more than one Host header");
        }
        host = value;
      } else if (name.equals("authorization")) {
        if (authorization != null) {
          throw new Malformed("more than one Authorization header");
        }
        authorization = value;
      } else if (name.equals("accept")) {
        accept = value;
      }
    }
    return new HttpRequestHead(method, path, host, authorization, accept, remote, local);
  }

  /** Whether the request is a HEAD (answered with the headers a GET would get, no body). */
  boolean isHead() {
    return method.equals("HEAD");
  }
}
