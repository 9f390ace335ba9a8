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
    Ledger ledger = Ledgers.onThisThread().open(top);
    Configuration derived = top.derive();

    assertThat(Ledgers.onThisThread().of(top)).isSameAs(ledger);
    assertThat(Ledgers.onThisThread().of(derived)).isSameAs(ledger);
    assertThat(Ledgers.onThisThread().of(top)).isSameAs(ledger);
    assertThat(Ledgers.onThisThread().of(new DefaultConfiguration())).isNull();

    Ledgers.onThisThread().close(top, ledger);
    assertThat(Ledgers.onThisThread().innermost()).isNull();
  }

  @Test
  void aClosedTransactionsConfigurationNoLongerCarriesItsLedger() {
    Configuration top = new DefaultConfiguration();
    Ledger ledger = Ledgers.onThisThread().open(top);
    ledger.push(LevelKind.TOP, null, 0);
    assertThat(Ledgers.onThisThread().of(top)).isSameAs(ledger);

    ledger.pop();
    Ledgers.onThisThread().close(top, ledger);

    assertThat(ledger.closed()).isTrue();
    assertThat(Ledgers.onThisThread().of(top)).isNull();
  }

  @Test
  void aLedgerClosedOnAnotherThreadIsLookedUpAgain() throws InterruptedException {
    Configuration top = new DefaultConfiguration();
    AtomicReference<Ledger> opened = new AtomicReference<>();
    Thread owner = new Thread(() -> opened.set(Ledgers.onThisThread().open(top)));
    owner.start();
    owner.join();
    // This thread remembers the ledger it found...
    assertThat(Ledgers.onThisThread().of(top)).isSameAs(opened.get());

    // ...which its owner then closes, and a new transaction's ledger is put in its place.
    Ledger next = new Ledger();
    Thread closer =
        new Thread(
            () -> {
              Ledgers.onThisThread().close(top, opened.get());
              top.data(Ledger.DATA_KEY, next);
            });
    closer.start();
    closer.join();

    assertThat(Ledgers.onThisThread().of(top)).isSameAs(next);
  }

  @Test
  void anAdoptedLedgerIsForgottenWithTheLevelThatAdoptedIt() {
    Ledger managed = Ledgers.onThisThread().openManaged();
    Configuration jooq = new DefaultConfiguration();

    Ledgers.onThisThread().adopt(jooq, managed);
    assertThat(Ledgers.onThisThread().of(jooq)).isSameAs(managed);

    Ledgers.onThisThread().forgetAdopted(jooq);
    assertThat(Ledgers.onThisThread().of(jooq)).isNull();
    Ledgers.onThisThread().close(null, managed);
    assertThat(Ledgers.onThisThread().innermost()).isNull();
  }
}
