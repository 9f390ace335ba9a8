package io.faultline.agent.instrumentation;

import java.nio.charset.StandardCharsets;

/**
 * A byte sequence to look for in class files, searched by Horspool's method: the transformer asks
 * this of every class an application loads (a Spring Boot service loads over ten thousand), and a
 * search that skips ahead by up to the pattern's length reads a fraction of each file's bytes.
 */
public final class BytePattern {

  private final byte[] pattern;

  /** How far the search may move on when the byte under the pattern's last position is this. */
  private final int[] shift = new int[256];

  private BytePattern(byte[] pattern) {
    this.pattern = pattern.clone();
    java.util.Arrays.fill(shift, pattern.length);
    for (int i = 0; i < pattern.length - 1; i++) {
      shift[pattern[i] & 0xff] = pattern.length - 1 - i;
    }
  }

  /**
   * The pattern of {@code ascii}'s bytes.
   *
   * @throws IllegalArgumentException if it is empty
   */
  public static BytePattern of(String ascii) {
    return of(ascii.getBytes(StandardCharsets.US_ASCII));
  }

  /**
   * The pattern of {@code bytes} (copied).
   *
   * @throws IllegalArgumentException if it is empty
   */
  public static BytePattern of(byte[] bytes) {
    if (bytes.length == 0) {
      throw new IllegalArgumentException("an empty byte pattern matches everything; give bytes");
    }
    return new BytePattern(bytes);
  }

  /** Whether the pattern occurs in {@code bytes} (false for null). */
  public boolean foundIn(byte[] bytes) {
    if (bytes == null) {
      return false;
    }
    int last = pattern.length - 1;
    int end = bytes.length - pattern.length;
    int at = 0;
    while (at <= end) {
      int j = last;
      while (bytes[at + j] == pattern[j]) {
        if (j == 0) {
          return true;
        }
        j--;
      }
      at += shift[bytes[at + last] & 0xff];
    }
    return false;
  }

  @Override
  public String toString() {
    return new String(pattern, StandardCharsets.ISO_8859_1);
  }
}
