package io.faultline.jooq.internal;

import java.util.regex.Pattern;

/** Recognises SQL that takes row locks with a locking clause ({@code FOR UPDATE/SHARE}). */
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
    if (sql.indexOf('f') < 0 && sql.indexOf('F') < 0) {
      return false;
    }
    return LOCKING_CLAUSE.matcher(sql).find();
  }
}
