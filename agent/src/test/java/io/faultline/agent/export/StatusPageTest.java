package io.faultline.agent.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatusPageTest {

  private static StatusSection section(String title, int order, String text) {
    return new StatusSection() {
      @Override
      public String title() {
        return title;
      }

      @Override
      public int order() {
        return order;
      }

      @Override
      public void render(HtmlWriter html) {
        html.paragraph(text);
      }
    };
  }

  @Test
  void sectionsRenderInOrderWithEveryTextEscaped() {
    StatusPage page = new StatusPage("Faultline <test>");
    page.add(section("Second", 20, "b"));
    page.add(section("First & foremost", 10, "<script>alert(1)</script>"));
    String html = page.render("footer \"x\"");
    assertThat(html)
        .startsWith("<!DOCTYPE html>")
        .contains("<title>Faultline &lt;test&gt;</title>")
        .contains("<h2>First &amp; foremost</h2>", "&lt;script&gt;alert(1)&lt;/script&gt;")
        .contains("footer &quot;x&quot;")
        .doesNotContain("<script>");
    assertThat(html.indexOf("First &amp;")).isLessThan(html.indexOf("Second"));
  }

  @Test
  void aFailingSectionIsShownAsFailedAndTheRestStillRenders() {
    StatusPage page = new StatusPage("t");
    page.add(
        new StatusSection() {
          @Override
          public String title() {
            return "Broken";
          }

          @Override
          public void render(HtmlWriter html) {
            html.paragraph("half written");
            throw new IllegalStateException("boom");
          }
        });
    page.add(section("Fine", 600, "still here"));
    String html = page.render("");
    assertThat(html)
        .contains(
            "<h2>Broken</h2>",
            "This section failed to render: java.lang.IllegalStateException: boom")
        .doesNotContain("half written")
        .contains("still here");
  }

  @Test
  void removedSectionIsGone() throws Exception {
    StatusPage page = new StatusPage("t");
    AutoCloseable handle = page.add(section("Temporary", 1, "x"));
    handle.close();
    assertThat(page.render("")).doesNotContain("Temporary");
  }

  @Test
  void tableCellsGetTheirStatusColour() {
    StringBuilder out = new StringBuilder();
    new HtmlWriter(out).table(List.of("a", "b"), List.of(List.of("CRITICAL", "x<y")));
    assertThat(out.toString())
        .contains("<td class=\"bad\">CRITICAL</td>", "<td class=\"\">x&lt;y</td>");
  }
}
