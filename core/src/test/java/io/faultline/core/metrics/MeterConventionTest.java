package io.faultline.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class MeterConventionTest {

  private static MeterDoc meter(String name, String unit, List<String> tags, String description) {
    return new MeterDoc(name, MeterDoc.Type.COUNTER, unit, tags, description, "test");
  }

  @Test
  void everyMeterOfTheCatalogsOnTheClassPathFollowsTheConvention() {
    List<MeterDoc> meters = new ArrayList<>();
    ServiceLoader.load(MeterCatalog.class).forEach(c -> meters.addAll(c.meters()));

    assertThat(meters).isNotEmpty();
    assertThat(MeterConvention.violations(meters)).isEmpty();
  }

  @Test
  void flagsAMissingUnitASynonymKeyAnUnboundedKeyAndAnUnlistedKey() {
    List<MeterDoc> planted =
        List.of(
            meter("faultline.test.no.unit", " ", List.of(), "Things."),
            meter("faultline.test.results", "polls", List.of("result"), "Polls by result."),
            meter("faultline.test.clients", "requests", List.of("client.id"), "Per client."),
            meter("faultline.test.colour", "things", List.of("colour"), "By colour."),
            meter("other.test.fine", "things", List.of("outcome", "pool"), "Fine."));

    assertThat(MeterConvention.violations(planted))
        .containsExactly(
            "faultline.test.no.unit: no base unit",
            "faultline.test.results: tag key result names what happened: use outcome",
            "faultline.test.clients: tag key client.id values are user text without bound: use"
                + " client.type",
            "faultline.test.colour: tag key colour is not one of "
                + MeterConvention.TAG_KEYS.keySet()
                + " (add it there)",
            "other.test.fine: name does not start with faultline.");
  }

  @Test
  void theAllowedKeysNameEachConceptOnceAndNoneIsAlsoRefused() {
    assertThat(new HashSet<>(MeterConvention.TAG_KEYS.values()))
        .hasSameSizeAs(MeterConvention.TAG_KEYS.values());
    assertThat(MeterConvention.TAG_KEYS.keySet())
        .doesNotContainAnyElementsOf(MeterConvention.REFUSED_KEYS.keySet());
    assertThat(MeterConvention.TAG_KEYS).containsKey("outcome");
    assertThat(MeterConvention.REFUSED_KEYS)
        .containsKeys("result", "event", "action", "decision", "client.id");
  }
}
