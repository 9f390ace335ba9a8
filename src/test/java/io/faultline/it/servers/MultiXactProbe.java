package io.faultline.it.servers;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Finds the MultiXact that the Channel.io PostgreSQL outage's pattern (a row locked {@code FOR
 * UPDATE}, then updated in a subtransaction) leaves behind, with PostgreSQL's built-in functions
 * only, so it works on the embedded server as on the container: no pageinspect.
 *
 * <p>{@link #start} checkpoints and notes the next MultiXact id; {@link #updatingMultiXacts} then
 * lists, among the MultiXacts created since, those whose members are the transaction that wrote the
 * row's current version (its {@code xmin}, with an update mode) and at least one other (the
 * locker). The old version's xmax is such a MultiXact exactly when the update went through a
 * savepoint: flattened, the locker and the updater are one transaction and no MultiXact is made;
 * refused, the row has no new version.
 */
public final class MultiXactProbe {

  private final PostgresServer postgres;
  private final long from;

  private MultiXactProbe(PostgresServer postgres, long from) {
    this.postgres = postgres;
    this.from = from;
  }

  /** Notes where the MultiXact counter stands before the pattern runs. */
  public static MultiXactProbe start(PostgresServer postgres) throws SQLException {
    return new MultiXactProbe(postgres, nextMultiXactId(postgres));
  }

  /**
   * The MultiXacts created since {@link #start} that hold the row {@code id = 1} of {@code table}:
   * its updater and another member, as {@code multixact: xid mode, xid mode}.
   */
  public List<String> updatingMultiXacts(String table) throws SQLException {
    long to = nextMultiXactId(postgres);
    List<String> found = new ArrayList<>();
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      long writer;
      try (ResultSet rs = s.executeQuery("SELECT xmin::text FROM " + table + " WHERE id = 1")) {
        if (!rs.next()) {
          return found;
        }
        writer = Long.parseLong(rs.getString(1));
      }
      Map<Long, List<String[]>> members = new TreeMap<>();
      try (ResultSet rs =
          s.executeQuery(
              "SELECT m, x.xid::text, x.mode FROM generate_series("
                  + from
                  + "::bigint, "
                  + (to - 1)
                  + "::bigint) AS m, LATERAL pg_get_multixact_members(m::text::xid) AS x")) {
        while (rs.next()) {
          members
              .computeIfAbsent(rs.getLong(1), k -> new ArrayList<>())
              .add(new String[] {rs.getString(2), rs.getString(3)});
        }
      }
      members.forEach(
          (multi, list) -> {
            boolean updatedByWriter =
                list.stream()
                    .anyMatch(
                        m ->
                            Long.parseLong(m[0]) == writer
                                && (m[1].equals("nokeyupd") || m[1].equals("upd")));
            if (updatedByWriter && list.size() >= 2) {
              StringBuilder b = new StringBuilder().append(multi).append(':');
              list.forEach(m -> b.append(' ').append(m[0]).append(' ').append(m[1]));
              found.add(b.toString());
            }
          });
    }
    return found;
  }

  /** The next MultiXact id, as of a checkpoint taken now. */
  private static long nextMultiXactId(PostgresServer postgres) throws SQLException {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("CHECKPOINT");
      try (ResultSet rs =
          s.executeQuery("SELECT next_multixact_id::text FROM pg_control_checkpoint()")) {
        rs.next();
        return Long.parseLong(rs.getString(1));
      }
    }
  }
}
