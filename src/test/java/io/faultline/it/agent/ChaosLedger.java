package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What {@code ChaosServiceApp} was told by its libraries: records acked and failed, records
 * consumed (with how often), transactions committed (with the rows each left), rolled back on
 * purpose, failed before their commit and in doubt (the commit itself failed). The checks compare
 * it with what Kafka delivered and what PostgreSQL holds: the outcome an application has without
 * the agent.
 */
record ChaosLedger(
    Set<Integer> acked,
    Set<Integer> sendFailed,
    Map<Integer, Integer> consumed,
    Set<Integer> committed,
    Set<String> committedRows,
    Set<Integer> rolledBack,
    Set<Integer> failed,
    Set<Integer> inDoubt,
    int poolTimeouts,
    String failures) {

  static ChaosLedger parse(String text) {
    Map<String, List<String>> lines = new HashMap<>();
    for (String line : text.split("\n")) {
      String[] words = line.trim().split(" ");
      List<String> values = new ArrayList<>(List.of(words).subList(1, words.length));
      lines.put(words[0], values);
    }
    Map<Integer, Integer> consumed = new TreeMap<>();
    for (String v : lines.get("consumed")) {
      int colon = v.indexOf(':');
      consumed.put(
          Integer.parseInt(v.substring(0, colon)), Integer.parseInt(v.substring(colon + 1)));
    }
    return new ChaosLedger(
        ints(lines.get("acked")),
        ints(lines.get("sendFailed")),
        consumed,
        ints(lines.get("committed")),
        new TreeSet<>(lines.get("committedRows")),
        ints(lines.get("rolledBack")),
        ints(lines.get("failed")),
        ints(lines.get("inDoubt")),
        Integer.parseInt(lines.get("poolTimeouts").get(0)),
        String.join(" ", lines.getOrDefault("failures", List.of())));
  }

  private static Set<Integer> ints(List<String> values) {
    Set<Integer> out = new TreeSet<>();
    values.forEach(v -> out.add(Integer.parseInt(v)));
    return out;
  }

  /** Top-level transactions the service began. */
  int transactions() {
    return committed.size() + rolledBack.size() + failed.size() + inDoubt.size();
  }

  /**
   * The idempotent producer's promise: every acked record consumed exactly once, no record twice,
   * nothing consumed that was never sent.
   */
  void assertEveryAckedRecordConsumedOnce() {
    Set<Integer> missing = new TreeSet<>(acked);
    missing.removeAll(consumed.keySet());
    assertThat(missing).as("acked records never consumed").isEmpty();
    Map<Integer, Integer> twice = new TreeMap<>(consumed);
    twice.values().removeIf(n -> n == 1);
    assertThat(twice).as("records consumed more than once (number=times)").isEmpty();
    Set<Integer> unknown = new TreeSet<>(consumed.keySet());
    unknown.removeAll(acked);
    unknown.removeAll(sendFailed);
    assertThat(unknown).as("records consumed that were never sent").isEmpty();
  }

  /**
   * The database's side: each committed transaction's rows present (its rolled-back nested level's
   * row absent), nothing of a transaction rolled back or failed before its commit, nothing of a
   * transaction the service never began.
   */
  void assertDatabaseMatches(PostgresServer postgres, String table) throws SQLException {
    Set<String> rows = new TreeSet<>();
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT tx, part FROM " + table)) {
      while (r.next()) {
        rows.add(r.getInt(1) + "." + r.getInt(2));
      }
    }
    Set<String> missing = new TreeSet<>(committedRows);
    missing.removeAll(rows);
    assertThat(missing).as("rows of committed transactions missing").isEmpty();
    Set<String> unexpected = new TreeSet<>();
    for (String row : rows) {
      int tx = Integer.parseInt(row.substring(0, row.indexOf('.')));
      boolean expected =
          committed.contains(tx) ? committedRows.contains(row) : inDoubt.contains(tx);
      if (!expected) {
        unexpected.add(row);
      }
    }
    assertThat(unexpected)
        .as("rows no committed transaction left (rolled back, failed, or a rolled-back savepoint)")
        .isEmpty();
  }

  /** One line for the test's output and the fault table. */
  String summary() {
    long consumedOnce = consumed.values().stream().filter(n -> n == 1).count();
    return String.format(
        "acked=%d sendFailed=%d consumed=%d (once %d) tx=%d committed=%d rolledBack=%d failed=%d"
            + " inDoubt=%d poolTimeouts=%d failures=[%s]",
        acked.size(),
        sendFailed.size(),
        consumed.size(),
        consumedOnce,
        transactions(),
        committed.size(),
        rolledBack.size(),
        failed.size(),
        inDoubt.size(),
        poolTimeouts,
        failures);
  }
}
