package io.faultline.jooq.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.jooq.SqlLiterals;
import org.junit.jupiter.api.Test;

class SqlTextTest {

  private static final int MAX = 10_000;

  private static String mask(String sql) {
    return SqlText.shown(sql, SqlLiterals.MASK, MAX);
  }

  @Test
  void aStringLiteralInALockingStatementIsMaskedAndTheShapeStays() {
    assertThat(mask("SELECT * FROM t WHERE email = 'alice@example.com' FOR UPDATE"))
        .isEqualTo("SELECT * FROM t WHERE email = ? FOR UPDATE");
  }

  @Test
  void jooqsQuotedIdentifiersStayAndItsInlinedValuesGo() {
    assertThat(
            mask(
                "select \"public\".\"account\".\"id\" from \"public\".\"account\" where"
                    + " \"public\".\"account\".\"email\" = 'bob@example.com' and"
                    + " \"public\".\"account\".\"id\" = 42 for no key update"))
        .isEqualTo(
            "select \"public\".\"account\".\"id\" from \"public\".\"account\" where"
                + " \"public\".\"account\".\"email\" = ? and \"public\".\"account\".\"id\" = ?"
                + " for no key update");
  }

  @Test
  void doubledQuotesStayInsideTheLiteral() {
    assertThat(mask("select 'it''s a secret', 'o''''neil' from t where a = ''''"))
        .isEqualTo("select ?, ? from t where a = ?");
  }

  @Test
  void dollarQuotedStringsWithDollarsQuotesAndDashesInsideAreOneLiteral() {
    assertThat(
            mask(
                "select $tag$it's $x -- 'no comment' /* $ta$ secret$tag $tag$, $$a$b 'c'$$, b"
                    + " from t"))
        .isEqualTo("select ?, ?, b from t");
    assertThat(mask("do $body$ begin raise notice 'alice'; end $body$")).isEqualTo("do ?");
  }

  @Test
  void blockCommentsNestAsInPostgresAndLineCommentsEndAtTheLineBreak() {
    assertThat(mask("select /* a /* alice@example.com */ still 'comment' */ a from t"))
        .isEqualTo("select a from t");
    assertThat(mask("select a -- alice@example.com 'x'\nfrom t -- trailing"))
        .isEqualTo("select a from t");
    assertThat(mask("-- it's a comment\nselect 1")).isEqualTo("select ?");
    assertThat(mask("select a /* it's */ , 'x' from t")).isEqualTo("select a , ? from t");
  }

  @Test
  void commentMarkersInsideLiteralsAreLiteral() {
    assertThat(mask("select '-- not a comment', '/* nor this', b from t"))
        .isEqualTo("select ?, ?, b from t");
  }

  @Test
  void escapeStringsHonourBackslashes() {
    assertThat(mask("select E'it\\'s alice', e'\\\\', 'c' from t"))
        .isEqualTo("select ?, ?, ? from t");
    assertThat(mask("select E'a''b\\'c' as x")).isEqualTo("select ? as x");
  }

  @Test
  void bitHexNationalAndUnicodeEscapeStringsAreLiterals() {
    assertThat(
            mask(
                "select B'1010', x'1F', N'name', U&'d\\0061t\\+000061' UESCAPE '!', u&\"col\""
                    + " from t"))
        .isEqualTo("select ?, ?, ?, ? UESCAPE ?, u&\"col\" from t");
  }

  @Test
  void koreanAndEmojiInLiteralsGoAndInIdentifiersStay() {
    assertThat(mask("select '김철수 😀' as \"이름😀\" from \"테이블\" where 이름1 = '홍길동'"))
        .isEqualTo("select ? as \"이름😀\" from \"테이블\" where 이름1 = ?");
    assertThat(mask("select 😀col from t")).isEqualTo("select 😀col from t");
  }

  @Test
  void anUnterminatedLiteralMasksTheRest() {
    assertThat(mask("select * from t where a = 'alice@example.com and b = 1"))
        .isEqualTo("select * from t where a = ?");
    assertThat(mask("select $$alice@example.com")).isEqualTo("select ?");
    assertThat(mask("select $q$alice $q from t")).isEqualTo("select ?");
    assertThat(mask("select E'alice\\' from t")).isEqualTo("select ?");
    assertThat(mask("select 'a' /* alice@example.com")).isEqualTo("select ?");
    assertThat(mask("select \"alice@example.com from t")).isEqualTo("select ?");
    assertThat(mask("select E'alice\\")).isEqualTo("select ?");
  }

  @Test
  void numbersGoButDigitsInIdentifiersStay() {
    assertThat(
            mask(
                "select t1.col_2, 42, 3.14, .5, 7., 1e10, 1.5E-3, 2e+8, 0x1F, 0o17, 0b101,"
                    + " 1_000_000, 12abc from t1 where c2 = 7 limit 10 offset 20"))
        .isEqualTo(
            "select t1.col_2, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? from t1 where c2 = ? limit ?"
                + " offset ?");
  }

  @Test
  void negativeNumbersKeepTheirSignAndLoseTheirDigits() {
    assertThat(mask("update t set a = -42, b = b-1 where c > -0.5 and d = -1e-3"))
        .isEqualTo("update t set a = -?, b = b-? where c > -? and d = -?");
  }

  @Test
  void parametersAndNamedParametersStay() {
    assertThat(mask("select a$1, $1, $23 from t where b = ? and c = :name and d = $"))
        .isEqualTo("select a$1, $1, $23 from t where b = ? and c = :name and d = $");
  }

  @Test
  void castsStayAndWhatTheyCastGoes() {
    assertThat(mask("select '42'::text, 42::int, $1::uuid, interval '1 day', array[1, 2]"))
        .isEqualTo("select ?::text, ?::int, $1::uuid, interval ?, array[?, ?]");
  }

  @Test
  void quotedIdentifiersWithDoubledQuotesStay() {
    assertThat(mask("select \"a\"\"b\", \"1st\" from \"t 2\""))
        .isEqualTo("select \"a\"\"b\", \"1st\" from \"t 2\"");
  }

  @Test
  void theTextIsOneLineWithoutControlCharacters() {
    assertThat(mask("select\n  a,\r\n\tb\u2028from t\u0000 where \"x\ny\" = 'p\nq'"))
        .isEqualTo("select a, b from t where \"x y\" = ?");
  }

  @Test
  void forUpdateStatementsStayRecognisableAfterMasking() {
    String masked = mask("SELECT id FROM account WHERE email = 'eve@example.com' FOR SHARE");
    assertThat(RowLockSql.locksRows(masked)).isTrue();
    assertThat(masked).doesNotContain("eve");
  }

  @Test
  void aLongTextIsCutWithAnEllipsisAndNeverLeaksAtTheCut() {
    String sql = "select a from t where email = 'alice@example.com' and b = 'bob'";
    String shown = SqlText.shown(sql, SqlLiterals.MASK, 34);
    assertThat(shown).isEqualTo("select a from t where email = ? an...");
    assertThat(SqlText.shown(sql, SqlLiterals.MASK, 31))
        .isEqualTo("select a from t where email = ?...");
    assertThat(SqlText.shown("select 'x'", SqlLiterals.MASK, 8)).isEqualTo("select ?");
  }

  @Test
  void aCutNeverSplitsASurrogatePair() {
    String sql = "select \"😀😀😀\"";
    assertThat(SqlText.shown(sql, SqlLiterals.KEEP, 10)).isEqualTo("select \"😀...");
    assertThat(SqlText.shown(sql, SqlLiterals.KEEP, 9)).isEqualTo("select \"...");
    assertThat(SqlText.shown(sql, SqlLiterals.MASK, 11)).isEqualTo("select \"😀...");
    assertThat(SqlText.shown(sql, SqlLiterals.MASK, 9)).isEqualTo("select \"...");
  }

  @Test
  void aMegabyteLiteralBecomesOneQuestionMark() {
    String sql = "select '" + "x".repeat(1_000_000) + "' from t";
    String shown = mask(sql);
    assertThat(shown).startsWith("select ?").endsWith("...").doesNotContain("x");
    assertThat(shown.length()).isLessThanOrEqualTo(MAX + 3);
  }

  @Test
  void aMegabyteStatementStaysBounded() {
    String sql = "select " + "a, 'secret', 12345, ".repeat(60_000) + "z from t";
    assertThat(sql.length()).isGreaterThan(1_000_000);
    String shown = SqlText.shown(sql, SqlLiterals.MASK, 160);
    assertThat(shown.length()).isLessThanOrEqualTo(163);
    assertThat(shown).startsWith("select a, ?, ?, a, ?, ?,").endsWith("...");
    assertThat(shown).doesNotContain("secret").doesNotContain("12345");
    String kept = SqlText.shown(sql, SqlLiterals.KEEP, 160);
    assertThat(kept.length()).isLessThanOrEqualTo(163);
    assertThat(kept).endsWith("...");
  }

  @Test
  void aMegabyteOfWhitespaceOrOpenCommentsIsReadOnlyUpToTheScanLimit() {
    assertThat(mask("select a" + " ".repeat(1_000_000) + "from t")).isEqualTo("select a...");
    assertThat(mask("select a " + "/*".repeat(500_000))).isEqualTo("select a...");
    assertThat(mask("select $" + "t".repeat(100) + "$ secret $" + "t".repeat(100) + "$, b"))
        .isEqualTo("select ?");
  }

  @Test
  void keepShowsTheStatementOnOneLine() {
    assertThat(
            SqlText.shown(
                "SELECT *\n FROM t WHERE email = 'alice@example.com' -- x\n FOR UPDATE",
                SqlLiterals.KEEP,
                MAX))
        .isEqualTo("SELECT * FROM t WHERE email = 'alice@example.com' -- x FOR UPDATE");
  }

  @Test
  void nullIsEmpty() {
    assertThat(SqlText.shown(null, SqlLiterals.MASK, MAX)).isEmpty();
    assertThat(SqlText.shown(null, SqlLiterals.KEEP, MAX)).isEmpty();
    assertThat(mask("   ")).isEmpty();
  }
}
