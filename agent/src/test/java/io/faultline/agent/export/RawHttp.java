package io.faultline.agent.export;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Sends raw request bytes over a real socket and reads the whole answer (the server closes). */
final class RawHttp {

  /** One answer: status, headers (lower-case names), body, and its size on the wire. */
  record Answer(int status, Map<String, String> headers, String body, int wireBytes) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  private RawHttp() {}

  /** {@code GET path} with {@code Host: 127.0.0.1:port} and {@code extraHeaders} lines. */
  static Answer get(int port, String path, String... extraHeaders) throws IOException {
    return send(
        InetAddress.getLoopbackAddress(),
        port,
        "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + lines(extraHeaders));
  }

  static String lines(String... headers) {
    StringBuilder out = new StringBuilder();
    for (String h : headers) {
      out.append(h).append("\r\n");
    }
    return out.append("\r\n").toString();
  }

  /** Sends {@code request} as is to {@code address:port}. */
  static Answer send(InetAddress address, int port, String request) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(address, port), 2_000);
      socket.setSoTimeout(5_000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().flush();
      return parse(readAll(socket.getInputStream()));
    }
  }

  static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    int n;
    while ((n = in.read(buffer)) >= 0) {
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }

  static Answer parse(byte[] bytes) throws IOException {
    String text = new String(bytes, StandardCharsets.UTF_8);
    int end = text.indexOf("\r\n\r\n");
    if (end < 0) {
      throw new IOException("no complete response: " + bytes.length + " bytes");
    }
    String[] lines = text.substring(0, end).split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers.put(
          lines[i].substring(0, colon).toLowerCase(Locale.ROOT),
          lines[i].substring(colon + 1).trim());
    }
    return new Answer(status, headers, text.substring(end + 4), bytes.length);
  }
}
