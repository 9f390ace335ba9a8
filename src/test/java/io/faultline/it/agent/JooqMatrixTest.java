package io.faultline.it.agent;

import io.faultline.it.matrix.MatrixReport;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The version matrix's jOOQ column ({@code ./mvnw verify -Pmatrix}): the agent's jOOQ checks
 * ({@link JooqAgentTest#warnsOnTheNestedSavepoint}, {@link
 * JooqAgentTest#flattensTheNestedTransaction}) on each jOOQ minor the profile copies, against the
 * suite's real PostgreSQL, each in a child on the oldest JDK it runs on: jOOQ up to 3.19 is built
 * for Java 17, 3.20 and later for Java 21.
 */
@Tag("matrix")
@EnabledIfSystemProperty(named = "faultline.it.matrix.jooq", matches = ".+")
@ExtendWith(RealServers.class)
class JooqMatrixTest {

  static List<String> versions() {
    return MatrixReport.versions("faultline.it.matrix.jooq");
  }

  @ParameterizedTest(name = "jOOQ {0}")
  @MethodSource("versions")
  void agentOnJooq(String version, PostgresServer postgres) throws Exception {
    String minor = version.substring(0, version.lastIndexOf('.'));
    int minorNumber = Integer.parseInt(minor.substring(minor.indexOf('.') + 1));
    int needs = minorNumber >= 20 ? 21 : 17;
    Jdk jdk = Jdk.available().stream().filter(j -> j.feature() >= needs).findFirst().orElseThrow();
    List<Path> classPath = JooqAgentTest.jooq319();
    classPath.set(0, MatrixReport.jar("jooq", version));
    String table = "matrix_jooq_" + minor.replace('.', '_');
    MatrixReport.check(
        "jOOQ",
        version,
        jdk.name().replace("jdk", "JDK "),
        () ->
            MatrixReport.Cell.supported(
                JooqAgentTest.warnsOnTheNestedSavepoint(
                        postgres, jdk, classPath, minor, table + "_warn")
                    + "; "
                    + JooqAgentTest.flattensTheNestedTransaction(
                        postgres, jdk, classPath, minor, table + "_flatten")));
  }

  @AfterAll
  static void report() {
    MatrixReport.write();
  }
}
