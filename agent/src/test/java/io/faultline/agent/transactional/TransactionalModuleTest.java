package io.faultline.agent.transactional;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TransactionalModuleTest {

  private final TransactionalModule module = new TransactionalModule();
  private final ClassLoader app = getClass().getClassLoader();

  private static byte[] naming(String descriptor) {
    return ("\u00ca\u00fe junk " + descriptor + " more junk").getBytes(StandardCharsets.ISO_8859_1);
  }

  @Test
  void aClassFileNamingABuiltInTransactionalAnnotationMayMatch() {
    assertThat(
            module.mayMatch(
                "app/OrderService",
                app,
                naming("Lorg/springframework/transaction/annotation/Transactional;")))
        .isTrue();
    assertThat(
            module.mayMatch("app/OrderService", app, naming("Ljakarta/transaction/Transactional;")))
        .isTrue();
  }

  @Test
  void aClassFileWithoutOneIsNeverParsed() throws IOException {
    byte[] real;
    try (InputStream in =
        app.getResourceAsStream("io/faultline/agent/transactional/TransactionalModule.class")) {
      real = in.readAllBytes();
    }
    assertThat(module.mayMatch("io/faultline/agent/transactional/TransactionalModule", app, real))
        .isFalse();
    assertThat(module.mayMatch("app/Other", app, naming("Lapp/MyTransactional;"))).isFalse();
  }

  @Test
  void onlyConfiguredAnnotationsOfAnotherNameNeedASearchOfTheirOwn() {
    assertThat(TransactionalAnnotations.otherDescriptors(TransactionalAnnotations.names()))
        .as("the built-in annotations are all called Transactional")
        .isEmpty();
    assertThat(
            TransactionalAnnotations.otherDescriptors(
                    Set.of(
                        "org.springframework.transaction.annotation.Transactional",
                        "com.acme.Transactional",
                        "com.acme.TxBoundary",
                        "Transactional"))
                .stream()
                .map(Object::toString))
        .containsExactlyInAnyOrder("Lcom/acme/TxBoundary;", "LTransactional;");
  }

  @Test
  void faultlinesOwnClassesAreNeverParsed() {
    assertThat(
            module.mayMatch(
                "io/faultline/it/app/Service",
                app,
                naming("Lorg/springframework/transaction/annotation/Transactional;")))
        .isFalse();
  }

  @Test
  void springItselfAndTheBootstrapLoaderAreLeftAlone() {
    byte[] annotated = naming("Lorg/springframework/transaction/annotation/Transactional;");
    assertThat(module.mayMatch("org/springframework/tx/Support", app, annotated)).isFalse();
    assertThat(module.mayMatch("app/OrderService", null, annotated)).isFalse();
  }
}
