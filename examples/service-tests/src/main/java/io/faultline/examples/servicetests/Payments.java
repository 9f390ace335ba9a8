package io.faultline.examples.servicetests;

import io.faultline.jooq.GuardedTransactionProvider;
import io.faultline.jooq.NestingPolicy;
import java.time.Duration;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.DataSourceConnectionProvider;
import org.jooq.impl.DefaultConfiguration;
import org.jooq.impl.DefaultTransactionProvider;

/**
 * A payment service's database code, with the Channel.io PostgreSQL outage's pattern written in on
 * purpose: {@link #pay} locks the account ({@code SELECT ... FOR UPDATE}) and then records its
 * audit row in a nested transaction, "so that a failed audit does not undo the payment". Under
 * jOOQ's default nesting that nested transaction is a savepoint begun after a row lock; under
 * {@link NestingPolicy#FLATTEN} it runs in the outer transaction and makes none. The service's
 * tests ({@code PaymentsTest}) fail on the first and pass on the second.
 */
public final class Payments {

  private final DSLContext dsl;

  /**
   * Payments on {@code dataSource}, nested transactions handled by {@code nesting}: {@code WARN}
   * keeps jOOQ's savepoints (the code as written), {@code FLATTEN} is the fix.
   */
  public Payments(DataSource dataSource, NestingPolicy nesting) {
    this(dataSource, nesting, Duration.ofSeconds(5));
  }

  /** As above, waiting at most {@code lockTimeout} for a row another transaction locked. */
  public Payments(DataSource dataSource, NestingPolicy nesting, Duration lockTimeout) {
    DataSourceConnectionProvider connections = new DataSourceConnectionProvider(dataSource);
    GuardedTransactionProvider transactions =
        GuardedTransactionProvider.wrap(new DefaultTransactionProvider(connections))
            .nesting(nesting)
            .lockTimeout(lockTimeout)
            .build();
    this.dsl =
        DSL.using(
            new DefaultConfiguration().set(SQLDialect.POSTGRES).set(connections).set(transactions));
  }

  /** Creates the two tables if missing. */
  public void createSchema() {
    dsl.execute("create table if not exists account (id int primary key, balance int not null)");
    dsl.execute(
        "create table if not exists payment_audit (id serial primary key, account int not null,"
            + " amount int not null)");
  }

  /** Opens {@code account} with {@code balance}, replacing one of the same id. */
  public void open(int account, int balance) {
    dsl.execute(
        "insert into account values (?, ?) on conflict (id) do update set balance = excluded.balance",
        account,
        balance);
  }

  /** Takes {@code amount} from {@code account} and audits it. */
  public void pay(int account, int amount) {
    dsl.transaction(
        outer -> {
          int balance =
              outer
                  .dsl()
                  .fetchOne("select balance from account where id = ? for update", account)
                  .get(0, Integer.class);
          if (balance < amount) {
            throw new IllegalStateException("account " + account + " has only " + balance);
          }
          outer
              .dsl()
              .execute("update account set balance = balance - ? where id = ?", amount, account);
          // The pattern: a nested transaction after the row lock above.
          outer
              .dsl()
              .transaction(
                  audit ->
                      audit
                          .dsl()
                          .execute(
                              "insert into payment_audit (account, amount) values (?, ?)",
                              account,
                              amount));
        });
  }

  /** The balance of {@code account}. */
  public int balance(int account) {
    return dsl.fetchOne("select balance from account where id = ?", account).get(0, Integer.class);
  }
}
