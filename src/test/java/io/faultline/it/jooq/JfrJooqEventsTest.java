package io.faultline.it.jooq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * jooq-guard's JDK Flight Recorder events on a real PostgreSQL, read back from a recording file: a
 * savepoint after {@code SELECT ... FOR UPDATE} ({@code io.faultline.SavepointAfterRowLock}, each
 * time, with the stack of the code that began it), the finding it raises ({@code
 * io.faultline.Finding}), and a statement timeout ({@code io.faultline.GuardedTimeout}).
 */
@ExtendWith(RealServers.class)
@Timeout(120)
class JfrJooqEventsTest {

  @Test
  void aRecordingHasTheSavepointsAfterARowLockTheFindingAndTheTimeout(PostgresServer postgres)
      throws Exception {
    String table = Guarded.table("jfr_account");
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, balance int NOT NULL)");
      s.execute("INSERT INTO " + table + " VALUES (1, 100)");
    }
    Path file = Files.createTempFile("faultline-jfr-jooq", ".jfr");
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(2));
        Recording recording = new Recording()) {
      recording.enable("io.faultline.SavepointAfterRowLock").withStackTrace();
      recording.enable("io.faultline.GuardedTimeout");
      recording.enable("io.faultline.Finding");
      recording.start();
      Guarded guarded = Guarded.on(pool, b -> b.statementTimeout(Duration.ofSeconds(1)));
      for (int i = 0; i < 2; i++) {
        guarded.dsl.transaction(
            outer -> {
              DSL.using(outer).fetch("SELECT * FROM " + table + " WHERE id = 1 FOR UPDATE");
              DSL.using(outer)
                  .transaction(
                      inner ->
                          DSL.using(inner)
                              .execute(
                                  "UPDATE " + table + " SET balance = balance - 1 WHERE id = 1"));
            });
      }
      assertThatThrownBy(
              () -> guarded.dsl.transaction(c -> DSL.using(c).execute("SELECT pg_sleep(30)")))
          .hasMessageContaining("statement");
      recording.stop();
      recording.dump(file);
    }
    List<RecordedEvent> events = RecordingFile.readAllEvents(file);
    Files.deleteIfExists(file);

    List<RecordedEvent> savepoints = named(events, "io.faultline.SavepointAfterRowLock");
    assertThat(savepoints).as("one event per savepoint after the lock").hasSize(2);
    RecordedEvent first = savepoints.get(0);
    assertThat(first.getString("lockingStatement")).contains("FOR UPDATE").doesNotContain("= 1");
    assertThat(first.getInt("depth")).isEqualTo(2);
    assertThat(first.getString("callSite")).contains("JfrJooqEventsTest");
    assertThat(first.getStackTrace()).as("the stack of the code that began it").isNotNull();
    assertThat(first.getStackTrace().getFrames())
        .anySatisfy(f -> assertThat(f.getMethod().getType().getName()).contains("JfrJooqEvents"));

    List<RecordedEvent> findings = named(events, "io.faultline.Finding");
    assertThat(findings)
        .anySatisfy(
            e -> {
              assertThat(e.getString("id")).isEqualTo("JOOQ_SAVEPOINT_AFTER_ROW_LOCK");
              assertThat(e.getString("change")).isEqualTo("raised");
              assertThat(e.getString("severity")).isEqualTo("CRITICAL");
              assertThat(e.getString("remediation")).isNotBlank();
            });

    List<RecordedEvent> timeouts = named(events, "io.faultline.GuardedTimeout");
    assertThat(timeouts).hasSize(1);
    assertThat(timeouts.get(0).getString("kind")).isEqualTo("statement");
    assertThat(timeouts.get(0).getDuration("timeout")).isEqualTo(Duration.ofSeconds(1));
    assertThat(timeouts.get(0).getEventType().getCategoryNames()).contains("Faultline");
  }

  private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
    return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
  }
}
