package io.faultline.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.jooq.internal.Ledger;
import io.faultline.jooq.internal.LevelKind;
import java.util.concurrent.atomic.AtomicReference;
import org.jooq.Configuration;
import org.jooq.impl.DefaultConfiguration;
import org.junit.jupiter.api.Test;

/** Where hooks find a transaction's ledger, with the thread's memory of the last one found. */
class LedgersTest {

  @Test
  void aLedgerIsFoundInItsConfigurationAndInOnesDerivedFromIt() {
    Configuration top = new DefaultConfiguration();
    Ledger ledger = Ledgers.open(top);
    Configuration derived = top.derive();

    assertThat(Ledgers.of(top)).isSameAs(ledger);
    assertThat(Ledgers.of(derived)).isSameAs(ledger);
    assertThat(Ledgers.of(top)).isSameAs(ledger);
    assertThat(Ledgers.of(new DefaultConfiguration())).isNull();

    Ledgers.close(top, ledger);
    assertThat(Ledgers.innermostOnThread()).isNull();
  }

  @Test
  void aClosedTransactionsConfigurationNoLongerCarriesItsLedger() {
    Configuration top = new DefaultConfiguration();
    Ledger ledger = Ledgers.open(top);
    ledger.push(LevelKind.TOP, null, 0);
    assertThat(Ledgers.of(top)).isSameAs(ledger);

    ledger.pop();
    Ledgers.close(top, ledger);

    assertThat(ledger.closed()).isTrue();
    assertThat(Ledgers.of(top)).isNull();
  }

  @Test
  void aLedgerClosedOnAnotherThreadIsLookedUpAgain() throws InterruptedException {
    Configuration top = new DefaultConfiguration();
    AtomicReference<Ledger> opened = new AtomicReference<>();
    Thread owner = new Thread(() -> opened.set(Ledgers.open(top)));
    owner.start();
    owner.join();
    // This thread remembers the ledger it found...
    assertThat(Ledgers.of(top)).isSameAs(opened.get());

    // ...which its owner then closes, and a new transaction's ledger is put in its place.
    Ledger next = new Ledger();
    Thread closer =
        new Thread(
            () -> {
              Ledgers.close(top, opened.get());
              top.data(Ledger.DATA_KEY, next);
            });
    closer.start();
    closer.join();

    assertThat(Ledgers.of(top)).isSameAs(next);
  }

  @Test
  void anAdoptedLedgerIsForgottenWithTheLevelThatAdoptedIt() {
    Ledger managed = Ledgers.openManaged();
    Configuration jooq = new DefaultConfiguration();

    Ledgers.adopt(jooq, managed);
    assertThat(Ledgers.of(jooq)).isSameAs(managed);

    Ledgers.forgetAdopted(jooq);
    assertThat(Ledgers.of(jooq)).isNull();
    Ledgers.closeManaged(managed);
    assertThat(Ledgers.innermostOnThread()).isNull();
  }
}
