package io.faultline.jooq;

import io.faultline.jooq.internal.Ledger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jooq.tools.jdbc.DefaultPreparedStatement;

/**
 * A prepared statement of an {@link ObservedConnection}: each run reports its SQL to the guard.
 * (The {@code execute(String)} family is refused by drivers on a prepared statement and passes
 * through.)
 */
final class ObservedPreparedStatement extends DefaultPreparedStatement {

  private final PreparedStatement delegate;
  private final String sql;
  private final Connection connection;
  private final Ledger ledger;
  private final StatementHooks hooks;

  ObservedPreparedStatement(
      PreparedStatement delegate,
      String sql,
      Connection connection,
      Ledger ledger,
      StatementHooks hooks) {
    super(delegate);
    this.delegate = delegate;
    this.sql = sql;
    this.connection = connection;
    this.ledger = ledger;
    this.hooks = hooks;
  }

  @Override
  public Connection getConnection() {
    return connection;
  }

  @Override
  public ResultSet executeQuery() throws SQLException {
    return hooks.run(ledger, sql, delegate, delegate::executeQuery);
  }

  @Override
  public int executeUpdate() throws SQLException {
    return hooks.run(ledger, sql, delegate, delegate::executeUpdate);
  }

  @Override
  public long executeLargeUpdate() throws SQLException {
    return hooks.run(ledger, sql, delegate, delegate::executeLargeUpdate);
  }

  @Override
  public boolean execute() throws SQLException {
    return hooks.run(ledger, sql, delegate, delegate::execute);
  }

  @Override
  public int[] executeBatch() throws SQLException {
    return hooks.run(ledger, sql, delegate, delegate::executeBatch);
  }

  @Override
  public long[] executeLargeBatch() throws SQLException {
    return hooks.run(ledger, sql, delegate, delegate::executeLargeBatch);
  }
}
