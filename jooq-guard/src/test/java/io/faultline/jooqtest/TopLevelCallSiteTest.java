package io.faultline.jooqtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.jooq.GuardedTransactionProvider;
import io.faultline.jooq.JooqFindingTypes;
import io.faultline.jooq.NestedTransactionException;
import io.faultline.jooq.NestingPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.jooq.impl.DefaultConnectionProvider;
import org.jooq.impl.DefaultTransactionProvider;
import org.jooq.tools.jdbc.MockConnection;
import org.jooq.tools.jdbc.MockResult;
import org.junit.jupiter.api.Test;

/**
 * A top-level transaction's call site is found only when something needs it, from the frames of the
 * transaction still on the stack: findings and exceptions must name the same line as when it was
 * walked at every begin. (Outside {@code io.faultline.jooq}: the guard skips its own frames.)
 */
class TopLevelCallSiteTest {

  private final Findings findings =
      new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("test"));

  private DSLContext dsl(NestingPolicy policy) {
    MockConnection connection =
        new MockConnection(ctx -> new MockResult[] {new MockResult(1, null)});
    DefaultConnectionProvider connections = new DefaultConnectionProvider(connection);
    return DSL.using(
        new DefaultConfiguration()
            .set(SQLDialect.POSTGRES)
            .set(connections)
            .set(
                GuardedTransactionProvider.wrap(new DefaultTransactionProvider(connections))
                    .nesting(policy)
                    .findings(findings)
                    .build()));
  }

  private Finding nestedFinding() {
    List<Finding> nested =
        findings.active().stream()
            .filter(f -> f.type() == JooqFindingTypes.NESTED_TRANSACTION)
            .toList();
    assertThat(nested).hasSize(1);
    return nested.get(0);
  }

  @Test
  void aNestedFindingNamesTheOuterAndInnerLines() {
    DSLContext dsl = dsl(NestingPolicy.WARN);
    int outerLine = new Throwable().getStackTrace()[0].getLineNumber() + 1;
    dsl.transaction(outer -> innerTransaction(DSL.using(outer)));
    Finding finding = nestedFinding();
    assertThat(finding.evidence().get("outerCallSite").toString())
        .isEqualTo(
            "io.faultline.jooqtest.TopLevelCallSiteTest.aNestedFindingNamesTheOuterAndInnerLines"
                + "(TopLevelCallSiteTest.java:"
                + outerLine
                + ")");
    assertThat(finding.subject())
        .startsWith("io.faultline.jooqtest.TopLevelCallSiteTest.innerTransaction(");
  }

  private static void innerTransaction(DSLContext dsl) {
    dsl.transaction(inner -> DSL.using(inner).execute("UPDATE t SET x = 1"));
  }

  @Test
  void threeLevelsDeepTheOuterSiteIsStillTheTopLevelsLine() {
    DSLContext dsl = dsl(NestingPolicy.WARN);
    int outerLine = new Throwable().getStackTrace()[0].getLineNumber() + 1;
    dsl.transaction(
        a ->
            DSL.using(a)
                .transaction(b -> DSL.using(b).transaction(c -> DSL.using(c).execute("SELECT 1"))));
    List<Finding> nested =
        findings.active().stream()
            .filter(f -> f.type() == JooqFindingTypes.NESTED_TRANSACTION)
            .toList();
    assertThat(nested).hasSize(2);
    for (Finding f : nested) {
      assertThat(f.evidence().get("outerCallSite").toString())
          .endsWith("(TopLevelCallSiteTest.java:" + outerLine + ")");
    }
  }

  @Test
  void aRefusedNestedTransactionNamesTheTopLevelCall() {
    DSLContext dsl = dsl(NestingPolicy.FAIL);
    assertThatThrownBy(() -> dsl.transaction(outer -> innerTransaction(DSL.using(outer))))
        .isInstanceOf(NestedTransactionException.class)
        .hasMessageContaining(
            "a transaction begun at io.faultline.jooqtest.TopLevelCallSiteTest.innerTransaction(")
        .hasMessageContaining(
            "inside the transaction begun at io.faultline.jooqtest.TopLevelCallSiteTest"
                + ".lambda$aRefusedNestedTransactionNamesTheTopLevelCall$");
  }
}
