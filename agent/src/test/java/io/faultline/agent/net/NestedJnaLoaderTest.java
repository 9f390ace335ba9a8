package io.faultline.agent.net;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NestedJnaLoaderTest {

  @Test
  void definesJnaFromTheNestedJarAndServesOnlyThisPlatformsLibrary() throws Exception {
    NestedJnaLoader loader = NestedJnaLoader.create(NestedJnaLoaderTest.class.getClassLoader());

    Class<?> pointer = loader.loadClass("com.sun.jna.Pointer");
    assertThat(pointer.getClassLoader()).isSameAs(loader);
    assertThat(loader.loadClass("com.sun.jna.Pointer")).isSameAs(pointer);
    String own =
        NestedJnaLoader.nativeDirectory(
                System.getProperty("os.name"), System.getProperty("os.arch"))
            + "libjnidispatch.so";
    assertThat(loader.getResource(own)).isNotNull();
    try (var in = loader.getResource(own).openStream()) {
      // An ELF shared object, inflated whole.
      assertThat(in.readNBytes(4)).containsExactly(0x7f, 'E', 'L', 'F');
    }
    String other =
        own.contains("aarch64")
            ? "com/sun/jna/linux-x86-64/libjnidispatch.so"
            : "com/sun/jna/linux-aarch64/libjnidispatch.so";
    assertThat(loader.getResource(other)).as("another platform's library").isNull();
    assertThat(loader.getResourceAsStream("com/sun/jna/NoSuchThing.class")).isNull();
  }

  @Test
  void picksJnasDirectoryForThePlatformsTheAgentRunsOn() {
    assertThat(NestedJnaLoader.nativeDirectory("Linux", "amd64"))
        .isEqualTo("com/sun/jna/linux-x86-64/");
    assertThat(NestedJnaLoader.nativeDirectory("Linux", "aarch64"))
        .isEqualTo("com/sun/jna/linux-aarch64/");
    assertThat(NestedJnaLoader.nativeDirectory("Linux", "ppc64le"))
        .isEqualTo("com/sun/jna/linux-ppc64le/");
    assertThat(NestedJnaLoader.nativeDirectory("Linux", "i686"))
        .isEqualTo("com/sun/jna/linux-x86/");
    assertThat(NestedJnaLoader.nativeDirectory("Mac OS X", "aarch64"))
        .isEqualTo("com/sun/jna/darwin-aarch64/");
    assertThat(NestedJnaLoader.nativeDirectory("Windows 11", "amd64"))
        .isEqualTo("com/sun/jna/win32-x86-64/");
    assertThat(NestedJnaLoader.nativeDirectory(null, null)).isEqualTo("com/sun/jna/-/");
  }
}
