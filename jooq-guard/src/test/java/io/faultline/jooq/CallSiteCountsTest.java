package io.faultline.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CallSiteCountsTest {

  @Test
  void distinctCallSitesBeyondTheBoundAreCountedTogetherUnderOther() {
    CallSiteCounts counts = new CallSiteCounts(3);
    for (int i = 0; i < 1000; i++) {
      counts.increment(new CallSite("com.acme.Generated" + i, "run", "", i));
    }
    assertThat(counts.size()).isEqualTo(4);
    assertThat(counts.snapshot()).containsEntry(CallSite.OTHER, 997L);
    assertThat(counts.snapshot().values().stream().mapToLong(Long::longValue).sum())
        .isEqualTo(1000);
  }

  @Test
  void theFirstCountAtACallSiteIsMarkedFirst() {
    CallSiteCounts counts = new CallSiteCounts(10);
    CallSite site = new CallSite("com.acme.A", "run", "A.java", 3);
    assertThat(counts.increment(site).first()).isTrue();
    assertThat(counts.increment(site).first()).isFalse();
  }

  @Test
  void theCallSiteIsTheFirstFrameOutsideFrameworks() {
    StackTraceElement[] stack = {
      new StackTraceElement("java.lang.Thread", "run", "Thread.java", 1),
      new StackTraceElement("org.jooq.impl.DefaultDSLContext", "transaction", "D.java", 2),
      new StackTraceElement("org.springframework.tx.X", "invoke", "X.java", 3),
      new StackTraceElement("io.faultline.jooq.TransactionGuard", "beginEnter", "T.java", 4),
      new StackTraceElement("com.acme.OrderService", "pay", "OrderService.java", 42),
    };
    assertThat(CallSite.of(stack).toString())
        .isEqualTo("com.acme.OrderService.pay(OrderService.java:42)");
    assertThat(CallSite.of(new StackTraceElement[0])).isEqualTo(CallSite.UNKNOWN);
  }
}
