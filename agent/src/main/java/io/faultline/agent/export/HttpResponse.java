package io.faultline.agent.export;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A whole response, rendered before a byte is sent so the connection's writer never waits on the
 * application. Every response closes its connection ({@code Connection: close}) and carries {@code
 * X-Content-Type-Options: nosniff} and {@code Cache-Control: no-store}.
 */
final class HttpResponse {

  /** The policy for the HTML status page: its only asset is its inline style sheet. */
  static final String PAGE_POLICY =
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none';"
          + " frame-ancestors 'none'";

  /** The policy for everything else, none of which a browser should run or frame. */
  static final String OTHER_POLICY = "default-src 'none'; frame-ancestors 'none'";

  private static final String TEXT = "text/plain; charset=utf-8";

  private final int status;
  private final String contentType;
  private final byte[] body;
  private final Map<String, String> extraHeaders = new LinkedHashMap<>();

  HttpResponse(int status, String contentType, String body) {
    this(status, contentType, body.getBytes(StandardCharsets.UTF_8));
  }

  HttpResponse(int status, String contentType, byte[] body) {
    this.status = status;
    this.contentType = contentType;
    this.body = body;
  }

  /** A short plain-text answer. */
  static HttpResponse text(int status, String body) {
    return new HttpResponse(status, TEXT, body);
  }

  /** Adds a header (names and values here are our own constants, never request text). */
  HttpResponse header(String name, String value) {
    extraHeaders.put(name, value);
    return this;
  }

  int status() {
    return status;
  }

  /** The bytes on the wire: status line, headers, and the body unless {@code head}. */
  byte[] bytes(boolean head) {
    StringBuilder out = new StringBuilder(256);
    out.append("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
    out.append("Content-Type: ").append(contentType).append("\r\n");
    out.append("Content-Length: ").append(body.length).append("\r\n");
    out.append("Connection: close\r\n");
    out.append("X-Content-Type-Options: nosniff\r\n");
    out.append("Cache-Control: no-store\r\n");
    if (!extraHeaders.containsKey("Content-Security-Policy")) {
      out.append("Content-Security-Policy: ").append(OTHER_POLICY).append("\r\n");
    }
    extraHeaders.forEach((n, v) -> out.append(n).append(": ").append(v).append("\r\n"));
    out.append("\r\n");
    byte[] headBytes = out.toString().getBytes(StandardCharsets.ISO_8859_1);
    if (head) {
      return headBytes;
    }
    byte[] all = new byte[headBytes.length + body.length];
    System.arraycopy(headBytes, 0, all, 0, headBytes.length);
    System.arraycopy(body, 0, all, headBytes.length, body.length);
    return all;
  }

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 421 -> "Misdirected Request";
      case 431 -> "Request Header Fields Too Large";
      case 500 -> "Internal Server Error";
      case 503 -> "Service Unavailable";
      default -> "Status";
    };
  }
}
