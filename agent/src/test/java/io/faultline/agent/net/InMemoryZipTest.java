package io.faultline.agent.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

class InMemoryZipTest {

  private static final byte[] TEXT =
      "kept, deflated, and read back ".repeat(200).getBytes(StandardCharsets.UTF_8);
  private static final byte[] NOISE = noise();

  @Test
  void readsKeptEntriesDeflatedAndStoredAndLeavesTheOthersOut() throws IOException {
    byte[] zip = zip("a comment at the end");

    assertThat(InMemoryZip.names(zip))
        .containsExactly("dir/", "dir/text.txt", "dir/noise.bin", "other/skip.txt");
    InMemoryZip kept = InMemoryZip.of(zip, name -> name.startsWith("dir/"));

    assertThat(kept.read("dir/text.txt")).isEqualTo(TEXT);
    assertThat(kept.read("dir/noise.bin")).isEqualTo(NOISE);
    assertThat(kept.contains("dir/")).as("directories are never kept").isFalse();
    assertThat(kept.contains("other/skip.txt")).isFalse();
    assertThat(kept.read("other/skip.txt")).isNull();

    kept.remove("dir/text.txt");
    assertThat(kept.contains("dir/text.txt")).isFalse();
    assertThat(kept.read("dir/text.txt")).isNull();
  }

  @Test
  void anEntryWhoseBytesWereDamagedFailsItsCheckNamingIt() throws IOException {
    byte[] zip = zip(null);
    // The stored entry's bytes sit verbatim in the archive: flip one of them.
    int at = indexOf(zip, Arrays.copyOf(NOISE, 64));
    zip[at + 10] ^= 1;

    InMemoryZip kept = InMemoryZip.of(zip, name -> true);
    assertThatThrownBy(() -> kept.read("dir/noise.bin"))
        .isInstanceOf(IOException.class)
        .hasMessage("dir/noise.bin: CRC mismatch");
    assertThat(kept.read("dir/text.txt")).isEqualTo(TEXT);
  }

  @Test
  void somethingElseThanAZipIsRefusedWithTheReason() {
    assertThatThrownBy(() -> InMemoryZip.names(TEXT))
        .isInstanceOf(IOException.class)
        .hasMessage("not a zip archive: no end of central directory record");
    assertThatThrownBy(() -> InMemoryZip.of(new byte[3], name -> true))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("not a zip archive");
  }

  private static byte[] zip(String comment) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry("dir/"));
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry("dir/text.txt"));
      zip.write(TEXT);
      zip.closeEntry();
      ZipEntry stored = new ZipEntry("dir/noise.bin");
      stored.setMethod(ZipEntry.STORED);
      stored.setSize(NOISE.length);
      CRC32 crc = new CRC32();
      crc.update(NOISE);
      stored.setCrc(crc.getValue());
      zip.putNextEntry(stored);
      zip.write(NOISE);
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry("other/skip.txt"));
      zip.write("not kept".getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
      if (comment != null) {
        zip.setComment(comment);
      }
    }
    return out.toByteArray();
  }

  private static byte[] noise() {
    byte[] bytes = new byte[4096];
    new Random(7).nextBytes(bytes);
    return bytes;
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("not found");
  }
}
