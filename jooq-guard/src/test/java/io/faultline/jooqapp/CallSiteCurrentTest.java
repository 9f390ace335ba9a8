package io.faultline.jooqapp;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.jooq.CallSite;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link CallSite#current()} as application code sees it (this package is outside the framework
 * prefixes, so this class is the application): resolved call sites are cached, and the cache must
 * still tell lines and methods apart.
 */
class CallSiteCurrentTest {

  @Test
  void eachLineIsItsOwnCallSiteAndARepeatedLineTheSameOne() {
    List<CallSite> sites = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      sites.add(CallSite.current());
      sites.add(CallSite.current());
    }
    CallSite first = sites.get(0);
    assertThat(first.className()).isEqualTo(CallSiteCurrentTest.class.getName());
    assertThat(first.methodName()).isEqualTo("eachLineIsItsOwnCallSiteAndARepeatedLineTheSameOne");
    assertThat(first.fileName()).isEqualTo("CallSiteCurrentTest.java");
    assertThat(sites.get(1).line()).isEqualTo(first.line() + 1);
    for (int i = 2; i < sites.size(); i++) {
      assertThat(sites.get(i)).isEqualTo(sites.get(i % 2));
    }
  }

  @Test
  void theSameBytecodeIndexInAnotherMethodIsAnotherCallSite() {
    CallSite a = siteA();
    CallSite b = siteB();
    assertThat(a.methodName()).isEqualTo("siteA");
    assertThat(b.methodName()).isEqualTo("siteB");
    assertThat(b.line()).isGreaterThan(a.line());
  }

  private static CallSite siteA() {
    return CallSite.current();
  }

  private static CallSite siteB() {
    return CallSite.current();
  }

  @Test
  void framesOfTheJdkBetweenAreSkipped() {
    List<CallSite> sites = new ArrayList<>();
    List.of(1).forEach(x -> sites.add(CallSite.current()));
    assertThat(sites.get(0).className()).isEqualTo(CallSiteCurrentTest.class.getName());
    assertThat(sites.get(0).methodName()).startsWith("lambda$framesOfTheJdkBetweenAreSkipped");
  }
}
