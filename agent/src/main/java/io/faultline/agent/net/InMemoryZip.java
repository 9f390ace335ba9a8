package io.faultline.agent.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Some entries of a zip archive held in memory, each inflated only when it is read.
 *
 * <p>Why not {@code JarInputStream}: it inflates every entry on its way to the next, and JNA's jar
 * carries its native library for two dozen platforms (5 MB inflated) of which one is used. Reading
 * the central directory instead costs a few hundred small reads; only the entries kept are copied,
 * still compressed, and only those asked for are inflated.
 */
final class InMemoryZip {

  private static final int END_SIGNATURE = 0x06054b50;
  private static final int CENTRAL_SIGNATURE = 0x02014b50;
  private static final int LOCAL_SIGNATURE = 0x04034b50;
  private static final int END_SIZE = 22;
  private static final int STORED = 0;
  private static final int DEFLATED = 8;

  /** One kept entry: its compressed bytes and what they must inflate to. */
  private record Entry(int method, byte[] data, int size, long crc) {}

  private final Map<String, Entry> entries;

  private InMemoryZip(Map<String, Entry> entries) {
    this.entries = entries;
  }

  /** The names of every entry of {@code zip}, directories included, in central directory order. */
  static List<String> names(byte[] zip) throws IOException {
    List<String> names = new ArrayList<>();
    for (Header h : headers(zip)) {
      names.add(h.name());
    }
    return names;
  }

  /**
   * The entries of {@code zip} whose names {@code keep} accepts (directories never), copied so that
   * {@code zip} itself is not held.
   */
  static InMemoryZip of(byte[] zip, Predicate<String> keep) throws IOException {
    Map<String, Entry> kept = new ConcurrentHashMap<>();
    ByteBuffer buf = ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN);
    for (Header h : headers(zip)) {
      String name = h.name();
      int header = h.offset();
      if (name.endsWith("/") || !keep.test(name)) {
        continue;
      }
      int method = buf.getShort(header + 10) & 0xffff;
      long crc = buf.getInt(header + 16) & 0xffffffffL;
      long compressed = buf.getInt(header + 20) & 0xffffffffL;
      long size = buf.getInt(header + 24) & 0xffffffffL;
      long local = buf.getInt(header + 42) & 0xffffffffL;
      if (method != STORED && method != DEFLATED) {
        throw new IOException(name + ": compression method " + method + " is not supported");
      }
      if (local + 30 > zip.length || buf.getInt((int) local) != LOCAL_SIGNATURE) {
        throw new IOException(name + ": no local header at " + local);
      }
      long data =
          local
              + 30
              + (buf.getShort((int) local + 26) & 0xffff)
              + (buf.getShort((int) local + 28) & 0xffff);
      if (data + compressed > zip.length || size > Integer.MAX_VALUE) {
        throw new IOException(name + ": entry runs past the end of the archive");
      }
      byte[] copy = new byte[(int) compressed];
      System.arraycopy(zip, (int) data, copy, 0, copy.length);
      kept.put(name, new Entry(method, copy, (int) size, crc));
    }
    return new InMemoryZip(kept);
  }

  /** Whether the entry is here (kept and not {@linkplain #remove removed}). */
  boolean contains(String name) {
    return entries.containsKey(name);
  }

  /** The entry's bytes, inflated and checked against its CRC; null when it is not here. */
  byte[] read(String name) throws IOException {
    Entry e = entries.get(name);
    if (e == null) {
      return null;
    }
    byte[] out;
    if (e.method() == STORED) {
      out = e.data().clone();
    } else {
      out = new byte[e.size()];
      Inflater inflater = new Inflater(true);
      try {
        inflater.setInput(e.data());
        int n = 0;
        while (n < out.length && !inflater.finished()) {
          int read = inflater.inflate(out, n, out.length - n);
          if (read == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
            break;
          }
          n += read;
        }
        if (n != out.length) {
          throw new IOException(name + ": inflated to " + n + " bytes, not " + out.length);
        }
      } catch (DataFormatException bad) {
        throw new IOException(name + ": corrupt deflate data", bad);
      } finally {
        inflater.end();
      }
    }
    CRC32 crc = new CRC32();
    crc.update(out);
    if (crc.getValue() != e.crc()) {
      throw new IOException(name + ": CRC mismatch");
    }
    return out;
  }

  /** Forgets the entry (its class is defined and will not be asked for again). */
  void remove(String name) {
    entries.remove(name);
  }

  /** An entry's name and where its central directory header starts. */
  private record Header(String name, int offset) {}

  private static List<Header> headers(byte[] zip) throws IOException {
    ByteBuffer buf = ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN);
    int end = findEnd(buf);
    int count = buf.getShort(end + 10) & 0xffff;
    long offset = buf.getInt(end + 16) & 0xffffffffL;
    if (count == 0xffff || offset == 0xffffffffL) {
      throw new IOException("a zip64 archive is not supported");
    }
    List<Header> headers = new ArrayList<>(count);
    int at = (int) offset;
    for (int i = 0; i < count; i++) {
      if (at + 46 > zip.length || buf.getInt(at) != CENTRAL_SIGNATURE) {
        throw new IOException("central directory entry " + i + " is not at " + at);
      }
      int nameLength = buf.getShort(at + 28) & 0xffff;
      int extraLength = buf.getShort(at + 30) & 0xffff;
      int commentLength = buf.getShort(at + 32) & 0xffff;
      if (at + 46 + nameLength > zip.length) {
        throw new IOException("central directory entry " + i + " runs past the end");
      }
      String name = new String(zip, at + 46, nameLength, StandardCharsets.UTF_8);
      headers.add(new Header(name, at));
      at += 46 + nameLength + extraLength + commentLength;
    }
    return headers;
  }

  /** The end-of-central-directory record: the last 22 bytes, or before a comment of ≤ 64 KiB. */
  private static int findEnd(ByteBuffer buf) throws IOException {
    int last = buf.limit() - END_SIZE;
    for (int at = last; at >= 0 && at >= last - 0xffff; at--) {
      if (buf.getInt(at) == END_SIGNATURE) {
        return at;
      }
    }
    throw new IOException("not a zip archive: no end of central directory record");
  }
}
