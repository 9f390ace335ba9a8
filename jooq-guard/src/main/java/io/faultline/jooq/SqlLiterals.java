package io.faultline.jooq;

/**
 * How the guard shows SQL text in findings, log lines and exception messages ({@code
 * jooq.sql.literals}). Statements carry the application's data when jOOQ inlines bind values or the
 * SQL is written by hand: e-mail addresses, tokens, identity numbers.
 */
public enum SqlLiterals {
  /**
   * Replace every literal (strings, numbers, dollar-quoted, {@code E''}, {@code B''}, {@code X''},
   * {@code U&''}) with {@code ?} and drop comments; identifiers, keywords and parameters stay. The
   * default.
   */
  MASK,
  /**
   * Show statements as they ran, literals and comments included: what they contain reaches logs,
   * findings and the agent's endpoints.
   */
  KEEP
}
