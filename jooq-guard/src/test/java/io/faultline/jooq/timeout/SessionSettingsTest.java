package io.faultline.jooq.timeout;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SessionSettingsTest {

  private static Connection fakeConnection() {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "unwrap" -> proxy;
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  default -> null;
                });
  }

  private static TimeoutSettings statement(long ms) {
    return new TimeoutSettings(Duration.ofMillis(ms), Duration.ZERO, Duration.ZERO, Duration.ZERO);
  }

  @Test
  void aSettingIsSentOncePerConnectionAndAgainOnlyWhenItChanges() {
    SessionSettings settings = new SessionSettings();
    Connection a = fakeConnection();
    Connection b = fakeConnection();

    assertThat(settings.plan(a, statement(5000), "")).isEqualTo("SET statement_timeout = 5000;");
    assertThat(settings.plan(a, statement(5000), "")).isEmpty();
    assertThat(settings.plan(b, statement(5000), "")).isEqualTo("SET statement_timeout = 5000;");
    assertThat(settings.plan(a, statement(1000), "")).isEqualTo("SET statement_timeout = 1000;");
    assertThat(settings.plan(a, statement(0), "")).isEqualTo("SET statement_timeout TO DEFAULT;");
    assertThat(settings.plan(a, statement(0), "")).isEmpty();
  }

  @Test
  void forgetMakesTheNextPlanSendItAgainAndLocalSettingsAlwaysGo() {
    SessionSettings settings = new SessionSettings();
    Connection a = fakeConnection();
    settings.plan(a, statement(5000), "");
    settings.forget(a);
    assertThat(settings.plan(a, statement(5000), "SET LOCAL statement_timeout = 9;"))
        .isEqualTo("SET statement_timeout = 5000;SET LOCAL statement_timeout = 9;");
    assertThat(settings.plan(a, TimeoutSettings.NONE, ""))
        .isEqualTo("SET statement_timeout TO DEFAULT;");
  }

  @Test
  void allThreeSessionSettingsGoInOneStatement() {
    SessionSettings settings = new SessionSettings();
    TimeoutSettings all =
        new TimeoutSettings(
            Duration.ofSeconds(5), Duration.ZERO, Duration.ofSeconds(2), Duration.ofMinutes(1));
    assertThat(settings.plan(fakeConnection(), all, ""))
        .isEqualTo(
            "SET statement_timeout = 5000;SET lock_timeout = 2000;"
                + "SET idle_in_transaction_session_timeout = 60000;");
  }
}
