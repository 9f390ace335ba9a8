package io.faultline.jooq.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RowLockSqlTest {

  @Test
  void lockingClausesAreRecognised() {
    assertThat(RowLockSql.locksRows("select * from t where id = ? for update")).isTrue();
    assertThat(RowLockSql.locksRows("SELECT 1 FROM t FOR NO KEY UPDATE SKIP LOCKED")).isTrue();
    assertThat(RowLockSql.locksRows("select * from t for\n share")).isTrue();
    assertThat(RowLockSql.locksRows("select * from t FOR KEY SHARE")).isTrue();
  }

  @Test
  void otherStatementsAreNot() {
    assertThat(RowLockSql.locksRows("update t set v = 1 where id = 2")).isFalse();
    assertThat(RowLockSql.locksRows("select format from t")).isFalse();
    assertThat(RowLockSql.locksRows("select * from t where updated_for = 'update'")).isFalse();
    assertThat(RowLockSql.locksRows(null)).isFalse();
  }

  @Test
  void theWordsInALiteralOrACommentAreNotALockingClause() {
    assertThat(RowLockSql.locksRows("insert into notes(text) values ('wait for update')"))
        .isFalse();
    assertThat(RowLockSql.locksRows("select * from t where note = E'it''s \\' for share'"))
        .isFalse();
    assertThat(RowLockSql.locksRows("select $$ for update $$ from t")).isFalse();
    assertThat(RowLockSql.locksRows("select * from t -- for update later\n")).isFalse();
    assertThat(RowLockSql.locksRows("select * from t /* for update */ where id = 1")).isFalse();
  }

  @Test
  void aLockingClauseBesideSuchWordsStillCounts() {
    assertThat(RowLockSql.locksRows("select * from t where note = 'for update' for update"))
        .isTrue();
    assertThat(RowLockSql.locksRows("select * from t /* note */ for /* why */ update")).isTrue();
  }
}
