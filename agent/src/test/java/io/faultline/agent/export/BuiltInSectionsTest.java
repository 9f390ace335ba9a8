package io.faultline.agent.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.Finding;
import io.faultline.core.host.HostFindingTypes;
import io.faultline.jooq.JooqFindingTypes;
import java.util.List;
import org.junit.jupiter.api.Test;

class BuiltInSectionsTest {

  @Test
  void theProcesssOwnFindingsComeBeforeTheHostsEachGroupInItsOrder() {
    Finding hostCritical =
        Finding.of(HostFindingTypes.TCP_WINDOW_SCALING_DISABLED, "host").message("m").build();
    Finding hostWarning =
        Finding.of(HostFindingTypes.LISTEN_BACKLOG_SMALL, "somaxconn").message("m").build();
    Finding ownCritical =
        Finding.of(JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK, "site").message("m").build();
    Finding ownWarning =
        Finding.of(JooqFindingTypes.NESTED_TRANSACTION, "site").message("m").build();

    List<Finding> ordered =
        BuiltInSections.ownFirst(List.of(hostCritical, ownCritical, hostWarning, ownWarning));

    assertThat(ordered).containsExactly(ownCritical, ownWarning, hostCritical, hostWarning);
  }
}
