package io.faultline.core.finding;

import io.faultline.core.Loggers;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** Every {@link FindingType} declared by a {@link FindingCatalog} on the class path. */
public final class FindingCatalogs {

  private static final System.Logger LOG = Loggers.get(FindingCatalogs.class.getName());

  private FindingCatalogs() {}

  /**
   * The types of every catalog found by {@link ServiceLoader}, sorted by id. A catalog that fails
   * to load is logged and skipped: one broken module must not hide the others' findings.
   */
  public static List<FindingType> fromClassPath() {
    List<FindingType> types = new ArrayList<>();
    Iterator<FindingCatalog> it =
        ServiceLoader.load(FindingCatalog.class, FindingCatalogs.class.getClassLoader()).iterator();
    while (true) {
      try {
        if (!it.hasNext()) {
          break;
        }
        types.addAll(it.next().findingTypes());
      } catch (ServiceConfigurationError | RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "faultline: a finding catalog failed to load", e);
      }
    }
    types.sort(Comparator.comparing(FindingType::id));
    return List.copyOf(types);
  }
}
