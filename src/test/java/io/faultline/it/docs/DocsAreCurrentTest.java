package io.faultline.it.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.docs.ReferenceDocs;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md, docs/findings.md and docs/metrics.md list every config key, finding and
 * meter declared by any module; this fails when they drift from the code. Only here, in the
 * integration suite, is every module's catalog on the class path.
 */
class DocsAreCurrentTest {

  @Test
  void referenceDocsMatchTheDeclarationsInCode() throws IOException {
    Path docs = Path.of(System.getProperty("faultline.it.docs.dir", "../../docs")).normalize();
    ReferenceDocs reference = ReferenceDocs.fromClassPath();
    if (Boolean.getBoolean("faultline.docs.write")) {
      reference.writeTo(docs);
      System.out.println("[faultline-it] rewrote the reference docs in " + docs);
    }
    assertThat(reference.differencesFrom(docs))
        .as("docs/ is out of date; regenerate with: " + ReferenceDocs.REGENERATE)
        .isEmpty();
  }
}
