package io.faultline.it.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.jooq.postgres.PostgresHealthMetrics;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two databases of one real PostgreSQL watched on one registry: two {@link PostgresHealthMetrics}
 * and two guards, each tagged with its database. Without the tags the second instance's meters
 * would have the first one's ids and Micrometer would keep only the first.
 */
@ExtendWith(RealServers.class)
class TaggedMetersOnPostgresTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private PostgresServer postgres;
  private String database;
  private String ordersUrl;

  @BeforeEach
  void createTheSecondDatabase(PostgresServer postgres) throws Exception {
    this.postgres = postgres;
    database = Guarded.table("orders");
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + database);
    }
    ordersUrl = postgres.jdbcUrl().replaceFirst("/[^/?]+(\\?|$)", "/" + database + "$1");
    assertThat(ordersUrl).isNotEqualTo(postgres.jdbcUrl()).contains("/" + database);
  }

  @AfterEach
  void dropTheSecondDatabase() throws Exception {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
    }
  }

  @Test
  void twoHealthBindersReportEachDatabaseUnderItsOwnTag() throws Exception {
    try (PostgresHealthMetrics main =
            PostgresHealthMetrics.builder(postgres.dataSource())
                .interval(Duration.ofHours(1))
                .tags("db", "main")
                .build();
        PostgresHealthMetrics orders =
            PostgresHealthMetrics.builder(ordersUrl, postgres.username(), postgres.password())
                .interval(Duration.ofHours(1))
                .tags("db", "orders")
                .build()) {
      main.bindTo(registry);
      orders.bindTo(registry);
      // Binding polls once on the poller thread; these polls are on top of that one.
      assertThat(main.pollNow()).isNotNull();
      assertThat(orders.pollNow()).isNotNull();
      assertThat(orders.pollNow()).isNotNull();

      assertThat(okPolls("main")).isGreaterThanOrEqualTo(1).isLessThan(okPolls("orders"));
      assertThat(okPolls("orders")).isGreaterThanOrEqualTo(2);
      for (String db : new String[] {"main", "orders"}) {
        // mxid_age(datminmxid) of the database each one is connected to: a number for both.
        assertThat(registry.get("faultline.pg.multixact.age").tag("db", db).gauge().value())
            .as(db)
            .isNotNaN()
            .isGreaterThanOrEqualTo(0);
      }
      int each = registry.getMeters().size() / 2;

      orders.close();
      assertThat(registry.getMeters())
          .hasSize(each)
          .extracting(m -> m.getId().getTag("db"))
          .containsOnly("main");
      assertThat(main.pollNow()).isNotNull();
      assertThat(okPolls("main")).isGreaterThanOrEqualTo(2);
    }
    assertThat(registry.getMeters()).isEmpty();
  }

  @Test
  void twoGuardsOnTwoPoolsCountEachDatabaseSeparately() {
    try (HikariDataSource ordersPool = postgres.newPool(c -> c.setJdbcUrl(ordersUrl))) {
      Guarded main =
          Guarded.on(postgres.dataSource(), b -> b.meterRegistry(registry).tags("db", "main"));
      Guarded orders = Guarded.on(ordersPool, b -> b.meterRegistry(registry).tags("db", "orders"));

      orders.dsl.transaction(tx -> tx.dsl().execute("create table t (id int)"));
      orders.dsl.transaction(tx -> tx.dsl().execute("insert into t values (1)"));
      orders.dsl.transaction(
          tx -> tx.dsl().transaction(inner -> inner.dsl().execute("insert into t values (2)")));
      main.dsl.transaction(tx -> tx.dsl().fetch("select current_database()"));

      assertThat(counter("faultline.jooq.transactions", "main", "committed")).isEqualTo(1.0);
      assertThat(counter("faultline.jooq.transactions", "orders", "committed")).isEqualTo(3.0);
      assertThat(counter("faultline.jooq.savepoints", "orders", "created")).isEqualTo(1.0);
      assertThat(counter("faultline.jooq.savepoints", "main", "created")).isZero();
      assertThat(orders.dsl.fetchValue("select count(*) from t", Long.class)).isEqualTo(2L);

      main.provider.guard().unbindMeters();
      assertThat(registry.getMeters())
          .isNotEmpty()
          .extracting(Meter::getId)
          .allSatisfy(id -> assertThat(id.getTag("db")).isEqualTo("orders"));
      orders.provider.guard().unbindMeters();
      assertThat(registry.getMeters()).isEmpty();
    }
  }

  private double okPolls(String db) {
    return counter("faultline.pg.health.polls", db, "ok");
  }

  private double counter(String name, String db, String outcome) {
    return registry.get(name).tags("db", db, "outcome", outcome).functionCounter().count();
  }
}
