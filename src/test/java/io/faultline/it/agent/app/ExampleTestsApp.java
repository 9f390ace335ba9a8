package io.faultline.it.agent.app;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.List;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs the test classes named in {@code args} on the JUnit platform, as Surefire would in a JVM
 * started with the agent. Prints one line per test ({@code PASSED name} or {@code FAILED name:
 * message}, newlines as {@code |}) and per report entry ({@code REPORT key=value}).
 */
public final class ExampleTestsApp {

  private ExampleTestsApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    AgentReady.await();
    List<DiscoverySelector> selectors = new ArrayList<>();
    for (String name : args) {
      selectors.add(selectClass(Class.forName(name)));
    }
    LauncherDiscoveryRequest request =
        LauncherDiscoveryRequestBuilder.request().selectors(selectors).build();
    LauncherFactory.create()
        .execute(
            request,
            new TestExecutionListener() {
              @Override
              public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                if (!test.isTest() && result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
                  return;
                }
                System.out.println(
                    (result.getStatus() == TestExecutionResult.Status.SUCCESSFUL
                            ? "PASSED " + test.getDisplayName()
                            : "FAILED "
                                + test.getDisplayName()
                                + ": "
                                + result.getThrowable().map(Throwable::toString).orElse("?"))
                        .replace('\n', '|'));
              }

              @Override
              public void reportingEntryPublished(TestIdentifier test, ReportEntry entry) {
                entry
                    .getKeyValuePairs()
                    .forEach(
                        (k, v) -> System.out.println("REPORT " + k + "=" + v.replace('\n', '|')));
              }
            });
    System.out.flush();
  }
}
