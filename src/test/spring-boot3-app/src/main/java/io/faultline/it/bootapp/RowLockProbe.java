package io.faultline.it.bootapp;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.springframework.stereotype.Component;

/**
 * What PostgreSQL recorded as the locked row's xmax, read from a second connection while the
 * transaction that locked and wrote it is still open: the transaction's own id when it locked and
 * wrote the row itself, a MultiXact (the lock of the transaction and the update of its
 * subtransaction) when a savepoint wrote it.
 */
@Component
public class RowLockProbe {

  private final DataSource dataSource;

  /** Created by Spring. */
  public RowLockProbe(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Called inside the transaction, which {@code dsl} runs in. */
  public String describe(DSLContext dsl, int id) {
    String own = String.valueOf(dsl.fetchValue("SELECT pg_current_xact_id()::text"));
    try (Connection other = dataSource.getConnection();
        Statement statement = other.createStatement()) {
      String xmax;
      try (ResultSet rs =
          statement.executeQuery("SELECT xmax::text FROM boot_starter_account WHERE id = " + id)) {
        rs.next();
        xmax = rs.getString(1);
      }
      if (xmax.equals(own)) {
        return "xmax is the transaction's own id";
      }
      try (ResultSet rs =
          statement.executeQuery(
              "SELECT string_agg(mode, '+' ORDER BY xid::text::bigint)"
                  + " FROM pg_get_multixact_members('"
                  + xmax
                  + "'::xid)")) {
        rs.next();
        return "xmax is a MultiXact of " + rs.getString(1);
      }
    } catch (SQLException e) {
      return "unreadable: " + e.getMessage();
    }
  }
}
