package io.faultline.agent.net;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NestedJnaLoaderTest {

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
