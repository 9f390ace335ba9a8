package io.faultline.it.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.FindingCatalogs;
import io.faultline.core.finding.FindingType;
import io.faultline.core.finding.Incident;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What users read stands on its own: main code, README and docs name the incidents by their public
 * names (docs/incidents.md), never by the project's internal seed numbers or a folder outside the
 * repository; and docs/incidents.md has a section for every incident that lists the findings
 * declared as answering it.
 */
class ProductTextTest {

  /**
   * "seed 004", "Seeds 000 and 002", a number wrapped onto the next comment line or string literal,
   * "seeds/", "../shared".
   */
  private static final Pattern INTERNAL =
      Pattern.compile("(?i)\\bseeds?[\\s*/\"+]+0\\d\\d|\\bseeds/|\\.\\./shared");

  /** Files under src/main that are text a user may read (not images, jars, ...). */
  private static final Pattern TEXT =
      Pattern.compile("\\.(java|md|txt|properties|html|css|js|json|ya?ml|xml|sh)$");

  /** The history of benchmark runs may keep the names they were written with. */
  private static final String EXEMPT = "benchmarks.md";

  private final Path docs =
      Path.of(System.getProperty("faultline.it.docs.dir", "../../docs"))
          .toAbsolutePath()
          .normalize();
  private final Path root = docs.getParent();

  @Test
  void mainCodeReadmesAndDocsUseTheIncidentsPublicNames() throws IOException {
    List<String> hits = new ArrayList<>();
    for (Path file : productText()) {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      Matcher m = INTERNAL.matcher(text);
      while (m.find()) {
        int line = (int) text.substring(0, m.start()).lines().count();
        hits.add(root.relativize(file) + ":" + Math.max(line, 1) + ": " + m.group());
      }
    }
    assertThat(hits)
        .as(
            "internal incident numbers in product text; name the incident as docs/incidents.md does")
        .isEmpty();
  }

  @Test
  void incidentsDocHasASectionPerIncidentListingTheFindingsThatAnswerIt() throws IOException {
    String text = Files.readString(docs.resolve("incidents.md"), StandardCharsets.UTF_8);
    List<FindingType> types = FindingCatalogs.fromClassPath();
    assertThat(types).isNotEmpty();
    for (Incident incident : Incident.values()) {
      String anchor = "<a id=\"" + incident.anchor() + "\"></a>";
      assertThat(text).as(incident + " section").contains(anchor);
      String section = section(text, text.indexOf(anchor));
      assertThat(section).as(incident + " heading").contains("## " + capitalized(incident));
      for (FindingType type : types) {
        if (type.incidents().contains(incident)) {
          assertThat(section)
              .as(type.id() + " is declared as answering " + incident.publicName())
              .contains("findings.md#" + type.id().toLowerCase(java.util.Locale.ROOT));
        }
      }
    }
  }

  /** From {@code start} to the next incident's anchor, or the end. */
  private static String section(String text, int start) {
    int next = text.indexOf("<a id=", start + 1);
    return text.substring(start, next < 0 ? text.length() : next);
  }

  private static String capitalized(Incident incident) {
    String name = incident.publicName();
    return Character.toUpperCase(name.charAt(0)) + name.substring(1);
  }

  /** Main sources of every module, the README files, and docs/ but for the benchmark history. */
  private List<Path> productText() throws IOException {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> all = Files.walk(root)) {
      all.filter(Files::isRegularFile)
          .filter(p -> !isBuildOutput(root.relativize(p)))
          .filter(this::isProductText)
          .forEach(files::add);
    }
    assertThat(files).as("files found under " + root).anyMatch(p -> p.endsWith("README.md"));
    return files;
  }

  private boolean isProductText(Path file) {
    Path relative = root.relativize(file);
    String name = file.getFileName().toString();
    if (name.equals("README.md")) {
      return true;
    }
    if (relative.startsWith("docs")) {
      return name.endsWith(".md") && !name.equals(EXEMPT);
    }
    String path = relative.toString().replace('\\', '/');
    return path.contains("/src/main/") && TEXT.matcher(name).find();
  }

  private static boolean isBuildOutput(Path relative) {
    for (Path part : relative) {
      String name = part.toString();
      if (name.equals("target") || name.startsWith(".")) {
        return true;
      }
    }
    return false;
  }
}
