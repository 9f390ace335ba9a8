package io.faultline.jooq.internal;

import java.util.regex.Pattern;

/**
 * Recognises SQL that takes row locks with a locking clause ({@code FOR UPDATE/SHARE}), outside
 * string literals and comments.
 */
public final class RowLockSql {

  private static final Pattern LOCKING_CLAUSE =
      Pattern.compile(
          "\\bfor\\s+(?:no\\s+key\\s+update|update|key\\s+share|share)\\b",
          Pattern.CASE_INSENSITIVE);

  private RowLockSql() {}

  /** Whether {@code sql} has a locking clause; false for null. */
  public static boolean locksRows(String sql) {
    if (sql == null || sql.length() < 10) {
      return false;
    }
    // Cheap pre-check: almost every statement lacks "for" altogether.
    if (!containsFor(sql)) {
      return false;
    }
    // Read past string literals and comments, which may hold the words or sit between them. A
    // statement longer than the scanner reads is matched as it is.
    if (sql.length() > SqlText.SCAN_LIMIT) {
      return LOCKING_CLAUSE.matcher(sql).find();
    }
    return LOCKING_CLAUSE.matcher(SqlText.masked(sql, sql.length() + 1)).find();
  }

  /** Whether {@code sql} contains "for" in any (ASCII) case, as the pattern needs. */
  private static boolean containsFor(String sql) {
    for (int i = 0, end = sql.length() - 2; i < end; i++) {
      char c = sql.charAt(i);
      if ((c == 'f' || c == 'F')
          && (sql.charAt(i + 1) | 0x20) == 'o'
          && (sql.charAt(i + 2) | 0x20) == 'r') {
        return true;
      }
    }
    return false;
  }
}
