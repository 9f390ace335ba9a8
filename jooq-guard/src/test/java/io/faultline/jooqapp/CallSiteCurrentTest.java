package io.faultline.jooqapp;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.jooq.CallSite;
import io.faultline.jooq.FrameworkFrames;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
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

  /**
   * The walk sizes its first batch from the depth of the last call site it found; a deeper or a
   * shallower one next must be found all the same, past the largest sized batch too.
   */
  @Test
  void aCallSiteDeeperOrShallowerThanTheLastOneIsFound() {
    for (int depth : new int[] {5, 40, 3, 120, 2, 60, 61, 62, 63, 64, 10}) {
      CallSite site = FrameworkFrames.below(depth, CallSite::current);
      assertThat(site.className()).as("%d frames down", depth).isEqualTo(getClass().getName());
      assertThat(site.methodName()).isEqualTo("aCallSiteDeeperOrShallowerThanTheLastOneIsFound");
    }
  }

  /** Reflection frames are shown to the walk and skipped like any JDK frame. */
  @Test
  void reflectionFramesBetweenAreSkipped() throws Exception {
    Method below = FrameworkFrames.class.getMethod("below", int.class, Supplier.class);
    Supplier<CallSite> current = CallSite::current;
    CallSite site = (CallSite) below.invoke(null, 20, current);
    assertThat(site.className()).isEqualTo(getClass().getName());
    assertThat(site.methodName()).isEqualTo("reflectionFramesBetweenAreSkipped");
  }
}
