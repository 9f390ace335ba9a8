package io.faultline.jooq.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SlruTest {

  @Test
  void namesOfEveryVersionMapToOneSpelling() {
    assertThat(SlruNames.canonical("MultiXactMember")).isEqualTo("multixact_member");
    assertThat(SlruNames.canonical("multixact_member")).isEqualTo("multixact_member");
    assertThat(SlruNames.canonical("Subtrans")).isEqualTo("subtransaction");
    assertThat(SlruNames.canonical("Xact")).isEqualTo("transaction");
    assertThat(SlruNames.canonical("CommitTs")).isEqualTo("commit_timestamp");
    assertThat(SlruNames.canonical("something_new")).isEqualTo("other");
  }

  @Test
  void hitRatiosComeFromDeltasAndRestartAfterAReset() {
    HitRatios ratios = new HitRatios();
    assertThat(ratios.next("multixact_member", 100, 10)).isNull();
    HitRatios.Delta d = ratios.next("multixact_member", 190, 100);
    assertThat(d.hits()).isEqualTo(90);
    assertThat(d.reads()).isEqualTo(90);
    assertThat(d.ratio()).isEqualTo(0.5);
    assertThat(ratios.next("multixact_member", 5, 5)).isNull();
    assertThat(ratios.next("multixact_member", 5, 5).ratio()).isNaN();
  }
}
