package io.faultline.jooq.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.jooq.CallSite;
import org.junit.jupiter.api.Test;

class LedgerTest {

  @Test
  void levelsArePushedAndPoppedInnermostFirst() {
    Ledger ledger = new Ledger();
    Level top = ledger.push(LevelKind.TOP, null, 0);
    Level savepoint = ledger.push(LevelKind.SAVEPOINT, null, 0);
    Level flattened = ledger.push(LevelKind.FLATTENED, null, 0);

    assertThat(ledger.depth()).isEqualTo(3);
    assertThat(flattened.depth()).isEqualTo(3);
    assertThat(ledger.peek()).isSameAs(flattened);
    assertThat(ledger.pop()).isSameAs(flattened);
    assertThat(ledger.pop()).isSameAs(savepoint);
    assertThat(ledger.peek()).isSameAs(top);
    assertThat(ledger.pop()).isSameAs(top);
    assertThat(ledger.pop()).isNull();
    assertThat(ledger.depth()).isZero();
    assertThat(ledger.maxDepth()).isEqualTo(3);
    assertThat(ledger.topCallSite()).isEqualTo(CallSite.UNKNOWN);
  }

  @Test
  void popToEndsTheLevelsLeftOpenAboveItAndIgnoresOneAlreadyEnded() {
    Ledger ledger = new Ledger(true);
    Level top = ledger.push(LevelKind.TOP, null, 0);
    Level savepoint = ledger.push(LevelKind.SAVEPOINT, null, 0);
    ledger.push(LevelKind.JOIN, null, 0);

    assertThat(ledger.popTo(savepoint)).isTrue();
    assertThat(ledger.peek()).isSameAs(top);
    assertThat(ledger.depth()).isEqualTo(1);
    assertThat(ledger.popTo(savepoint)).isFalse();
    assertThat(ledger.depth()).isEqualTo(1);
    assertThat(ledger.popTo(top)).isTrue();
    assertThat(ledger.depth()).isZero();
  }

  @Test
  void aNewTopLevelAfterTheLastEndedStartsAtDepthOne() {
    Ledger ledger = new Ledger();
    ledger.push(LevelKind.TOP, null, 0);
    ledger.pop();

    Level again = ledger.push(LevelKind.TOP, null, 0);

    assertThat(again.depth()).isEqualTo(1);
    assertThat(ledger.peek()).isSameAs(again);
  }
}
