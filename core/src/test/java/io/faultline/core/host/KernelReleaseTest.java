package io.faultline.core.host;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KernelReleaseTest {

  @Test
  void parsesNumbersAndSuffix() {
    KernelRelease k = KernelRelease.parse("4.19.0-21-amd64\n").orElseThrow();
    assertThat(k.major()).isEqualTo(4);
    assertThat(k.minor()).isEqualTo(19);
    assertThat(k.patch()).isZero();
    assertThat(k.suffix()).isEqualTo("-21-amd64");
    assertThat(k.distroNumbered()).isTrue();
  }

  @Test
  void plainAndCustomReleasesAreNotDistroNumbered() {
    assertThat(KernelRelease.parse("5.4.78").orElseThrow().distroNumbered()).isFalse();
    assertThat(KernelRelease.parse("6.18.44-fc-v657").orElseThrow().distroNumbered()).isFalse();
    assertThat(KernelRelease.parse("6.1").orElseThrow().patch()).isZero();
    assertThat(KernelRelease.parse("4.18.0-305.el8.x86_64").orElseThrow().distroNumbered())
        .isTrue();
  }

  @Test
  void comparesByNumbers() {
    KernelRelease k = KernelRelease.parse("5.4.77").orElseThrow();
    assertThat(k.atLeast(5, 4, 77)).isTrue();
    assertThat(k.atLeast(5, 4, 78)).isFalse();
    assertThat(k.atLeast(5, 10, 0)).isFalse();
    assertThat(SynCookieKernelCheck.fixed(k)).isFalse();
    assertThat(SynCookieKernelCheck.fixed(KernelRelease.parse("5.10.0").orElseThrow())).isTrue();
  }

  @Test
  void rejectsGarbage() {
    assertThat(KernelRelease.parse("linux")).isEmpty();
  }
}
