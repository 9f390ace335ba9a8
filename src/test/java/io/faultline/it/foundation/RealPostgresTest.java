package io.faultline.it.foundation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.it.servers.RequiresDocker;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The suite's PostgreSQL is a real server: transactions through a HikariCP pool commit and roll
 * back.
 */
@ExtendWith(RealServers.class)
class RealPostgresTest {

  @Test
  void aTransactionThroughThePoolCommitsAndAnotherRollsBack(PostgresServer postgres)
      throws SQLException {
    String table = "t_" + UUID.randomUUID().toString().replace("-", "");
    try (Connection c = postgres.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, v text)");
    }

    try (Connection c = postgres.dataSource().getConnection()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.executeUpdate("INSERT INTO " + table + " VALUES (1, 'kept')");
      }
      c.commit();
      try (Statement s = c.createStatement()) {
        s.executeUpdate("INSERT INTO " + table + " VALUES (2, 'dropped')");
      }
      c.rollback();
      c.setAutoCommit(true);
    }

    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT string_agg(v, ',' ORDER BY id) FROM " + table)) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo("kept");
    }
  }

  @Test
  void theServerIsPostgres15AndRejectsBadSql(PostgresServer postgres) throws SQLException {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SHOW server_version_num")) {
        rs.next();
        assertThat(rs.getInt(1) / 10000).isEqualTo(postgres.majorVersion());
      }
      assertThatThrownBy(() -> s.executeQuery("SELECT * FROM no_such_table"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("no_such_table");
    }
  }

  @Test
  @RequiresDocker("the contrib extensions come from the project's Debian PostgreSQL image")
  void theImageHasTheContribExtensionsTheDiagnosesUse(PostgresServer postgres) throws SQLException {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      for (String extension : new String[] {"pageinspect", "pgrowlocks", "pg_stat_statements"}) {
        s.execute("CREATE EXTENSION IF NOT EXISTS " + extension);
      }
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_statements")) {
        rs.next();
        assertThat(rs.getLong(1)).isPositive();
      }
    }
  }
}
