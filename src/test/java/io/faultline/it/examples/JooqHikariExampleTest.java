package io.faultline.it.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.Finding;
import io.faultline.examples.jooqhikari.JooqHikariExample;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The jooq-hikari example against a real PostgreSQL: each scene has the effect it prints. */
@ExtendWith(RealServers.class)
class JooqHikariExampleTest {

  @Test
  void warnsRefusesAndStopsTheRunawayQuery(PostgresServer postgres) {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    JooqHikariExample.Result result =
        JooqHikariExample.run(
            postgres.dataSource(), new PrintStream(printed, true, StandardCharsets.UTF_8));
    String out = printed.toString(StandardCharsets.UTF_8);
    System.out.print(out);

    // WARN: the nested level went through as a real savepoint, after a row lock.
    assertThat(result.warnStats().nestedAllowed()).isEqualTo(1);
    assertThat(result.warnStats().savepointsCreated()).isEqualTo(1);
    assertThat(result.warnStats().savepointsReleased()).isEqualTo(1);
    assertThat(result.findings())
        .extracting(Finding::id)
        .contains("JOOQ_NESTED_TRANSACTION", "JOOQ_SAVEPOINT_AFTER_ROW_LOCK");
    // FAIL: refused before a savepoint existed; the outer transaction still committed.
    assertThat(result.failStats().nestedRefused()).isEqualTo(1);
    assertThat(result.failStats().savepointsCreated()).isZero();
    assertThat(result.failStats().committed()).isEqualTo(1);
    assertThat(result.refused()).isNotBlank();
    // The runaway query: cancelled by statement_timeout, its transaction rolled back.
    assertThat(result.warnStats().statementTimeouts()).isEqualTo(1);
    assertThat(result.timedOut()).contains("pg_sleep");
    // The meters say the same as the stats, each guard under its own tag on the one registry.
    assertThat(result.counters())
        .containsEntry("faultline.jooq.savepoints{guard=warn,outcome=created}", 1.0)
        .containsEntry("faultline.jooq.nested{guard=warn,outcome=allowed}", 1.0)
        .containsEntry("faultline.jooq.timeouts{guard=warn,kind=statement}", 1.0)
        .containsEntry("faultline.jooq.nested{guard=fail,outcome=refused}", 1.0)
        .containsEntry("faultline.jooq.savepoints{guard=fail,outcome=created}", 0.0)
        .containsEntry("faultline.jooq.transactions{guard=fail,outcome=committed}", 1.0);
    assertThat(out).contains("finding JOOQ_SAVEPOINT_AFTER_ROW_LOCK", "refused: ", "stopped: ");
  }
}
