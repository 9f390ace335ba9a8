package io.faultline.junit;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ExtensionContext.Store;

/**
 * Collects the findings raised while each test runs (by jooq-guard as a library, and by the agent
 * when the test JVM runs with it) and fails the test on the chosen ones ({@link FaultlineTest},
 * {@link FailOn}) and on per-transaction budgets ({@link MaxSavepoints}, {@link MaxNesting}, {@link
 * MaxStatements}). The failure names each finding's call site, message and what to do.
 *
 * <p>A test's window runs from before its {@code @BeforeEach} methods to after its
 * {@code @AfterEach} methods; a class's {@code @BeforeAll} and {@code @AfterAll} are charged to the
 * class and fail it. Each test's findings are published as a report entry ({@code faultline}), and
 * each top-level class publishes the report of its tests ({@code faultline.report}).
 *
 * <p>Parallel execution: what a test's own thread reports is that test's; what other threads report
 * is charged to a test only when it is the only one running (see {@code
 * docs/testing-your-service.md}).
 */
public final class FaultlineExtension
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

  private static final Namespace NAMESPACE = Namespace.create(FaultlineExtension.class);
  private static final String RECORD = "record";

  /** Made by JUnit. */
  public FaultlineExtension() {}

  @Override
  public void beforeAll(ExtensionContext context) {
    TestRecord record = new TestRecord(name(context));
    context.getStore(NAMESPACE).put(RECORD, record);
    hub(context).enter(record, false);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    TestRecord record = new TestRecord(name(context));
    context.getStore(NAMESPACE).put(RECORD, record);
    hub(context).enter(record, true);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    end(context, true);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    try {
      end(context, false);
    } finally {
      if (isTopLevelClass(context)) {
        ObservationHub hub = hub(context);
        int[] total = {0};
        List<String> unattributed = hub.drainUnattributed(total);
        context.publishReportEntry(
            "faultline.report", report(context).render(hub.sources(), unattributed, total[0]));
      }
    }
  }

  private void end(ExtensionContext context, boolean test) {
    TestRecord record = context.getStore(NAMESPACE).remove(RECORD, TestRecord.class);
    if (record == null) {
      return;
    }
    hub(context).exit(record, test);
    if (!record.findings().isEmpty() || record.transactions() > 0) {
      context.publishReportEntry("faultline", Verdict.summary(record));
    }
    report(context).add(record, test);
    String failures = Verdict.failures(record, TestPolicy.of(context));
    if (!failures.isEmpty()) {
      throw new AssertionError(failures);
    }
  }

  private static ObservationHub hub(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            ObservationHub.class, k -> ObservationHub.start(), ObservationHub.class);
  }

  /** The report of the test's top-level class (a detached one for a lone method registration). */
  private static RunReport report(ExtensionContext context) {
    Store store = topLevel(context).getStore(NAMESPACE);
    return store.getOrComputeIfAbsent(RunReport.class, k -> new RunReport(), RunReport.class);
  }

  private static ExtensionContext topLevel(ExtensionContext context) {
    ExtensionContext c = context;
    while (!isTopLevelClass(c)) {
      Optional<ExtensionContext> parent = c.getParent();
      if (parent.isEmpty()) {
        return c;
      }
      c = parent.get();
    }
    return c;
  }

  private static boolean isTopLevelClass(ExtensionContext context) {
    return context.getTestMethod().isEmpty()
        && context.getTestClass().isPresent()
        && context.getParent().flatMap(ExtensionContext::getParent).isEmpty();
  }

  /** {@code Outer > Nested > method()}, from the display names. */
  private static String name(ExtensionContext context) {
    StringBuilder name = new StringBuilder(context.getDisplayName());
    for (ExtensionContext c = context.getParent().orElse(null);
        c != null && c.getParent().isPresent();
        c = c.getParent().orElse(null)) {
      name.insert(0, c.getDisplayName() + " > ");
    }
    return name.toString();
  }
}
