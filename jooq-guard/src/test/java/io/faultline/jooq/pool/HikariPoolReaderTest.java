package io.faultline.jooq.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

class HikariPoolReaderTest {

  /** Has HikariCP's method names, which is all the reader relies on. */
  public static class FakeHikari {
    public FakeBean bean;
    public boolean closed;

    public Object getHikariPoolMXBean() {
      return bean;
    }

    public int getMaximumPoolSize() {
      return 20;
    }

    public int getMinimumIdle() {
      return 2;
    }

    public String getPoolName() {
      return "orders";
    }

    public boolean isClosed() {
      return closed;
    }

    public String getJdbcUrl() {
      return "jdbc:postgresql://db/orders";
    }

    public String getUsername() {
      return "app";
    }

    public String getPassword() {
      return "secret";
    }
  }

  /** HikariCP's pool bean methods. */
  public static class FakeBean {
    public int getTotalConnections() {
      return 9;
    }

    public int getActiveConnections() {
      return 7;
    }

    public int getIdleConnections() {
      return 2;
    }

    public int getThreadsAwaitingConnection() {
      return 4;
    }
  }

  @Test
  void readsThePoolByMethodName() {
    FakeHikari hikari = new FakeHikari();
    hikari.bean = new FakeBean();
    HikariPoolReader reader = HikariPoolReader.ofHikari(hikari).orElseThrow();

    assertThat(reader.read()).contains(new PoolReading("orders", 9, 7, 2, 4, 2, 20));
    assertThat(reader.jdbcUrl()).isEqualTo("jdbc:postgresql://db/orders");
    assertThat(reader.username()).isEqualTo("app");
  }

  @Test
  void aPoolNotStartedOrClosedReadsEmpty() {
    FakeHikari hikari = new FakeHikari();
    HikariPoolReader reader = HikariPoolReader.ofHikari(hikari).orElseThrow();
    assertThat(reader.read()).isEmpty();

    hikari.bean = new FakeBean();
    hikari.closed = true;
    assertThat(reader.read()).isEmpty();
    assertThat(reader.gone()).isTrue();
  }

  @Test
  void anotherDataSourceIsNotRead() {
    assertThat(HikariPoolReader.of(new PlainDataSource())).isEmpty();
    assertThat(HikariPoolReader.ofHikari(new Object())).isEmpty();
  }

  private static final class PlainDataSource implements DataSource {
    @Override
    public Connection getConnection() {
      throw new UnsupportedOperationException();
    }

    @Override
    public Connection getConnection(String username, String password) {
      throw new UnsupportedOperationException();
    }

    @Override
    public PrintWriter getLogWriter() {
      return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
      return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
      throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
      return false;
    }
  }
}
