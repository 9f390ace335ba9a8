package io.faultline.agent.jdbc;

import io.faultline.agent.weave.Advice;

/** After a {@code HikariDataSource} constructor: hands the new instance to {@link HikariPools}. */
public final class HikariConstructedAdvice {

  private HikariConstructedAdvice() {}

  /** On exit of the constructor. */
  @Advice.OnMethodExit(suppress = Throwable.class)
  public static void exit(@Advice.This Object dataSource) {
    if (!HikariPoolModule.SWITCH.active()) {
      return;
    }
    HikariPools.constructed(dataSource);
  }
}
