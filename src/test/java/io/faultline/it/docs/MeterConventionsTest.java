package io.faultline.it.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.metrics.MeterCatalog;
import io.faultline.core.metrics.MeterConvention;
import io.faultline.core.metrics.MeterDoc;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/**
 * Every meter of every module follows the naming convention of {@code docs/metrics.md} (lowercase
 * dotted name, base unit, description, tag keys from {@link MeterConvention#TAG_KEYS} only). Here,
 * in the integration suite, every module's catalog is on the class path.
 */
class MeterConventionsTest {

  @Test
  void everyDeclaredMeterFollowsTheNamingConvention() {
    List<MeterDoc> meters = new ArrayList<>();
    List<String> catalogs = new ArrayList<>();
    for (MeterCatalog catalog : ServiceLoader.load(MeterCatalog.class)) {
      catalogs.add(catalog.getClass().getSimpleName());
      meters.addAll(catalog.meters());
    }

    assertThat(catalogs)
        .contains("CoreMeters", "HostTcpMeters", "JooqMeters", "HealthMeters", "KafkaMeters");
    assertThat(MeterConvention.violations(meters)).isEmpty();
  }
}
