package io.faultline.agent.export;

import io.faultline.core.Loggers;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The agent's status page: plain server-rendered HTML with inline styles and no external assets (it
 * must work in an air-gapped cluster and through {@code kubectl port-forward}), made of {@link
 * StatusSection}s.
 */
public final class StatusPage {

  private static final System.Logger LOG = Loggers.get(StatusPage.class.getName());

  private static final String STYLE =
      "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;max-width:75em}"
          + "h1{font-size:1.4em}h2{font-size:1.1em;border-bottom:1px solid #ccc;"
          + "padding-bottom:.2em;margin-top:1.6em}"
          + "table{border-collapse:collapse;font-size:.9em;width:100%}"
          + "th,td{border:1px solid #ddd;padding:.25em .6em;text-align:left;vertical-align:top;"
          // anywhere, not break-word: only then may a long token (evidence, a sysctl path) shrink
          // its column, so the findings table fits a 1280 px window.
          + "overflow-wrap:anywhere}"
          + "th{background:#f3f3f3}.bad{background:#fbd5d5}.warn{background:#fdf0c8}"
          + ".ok{background:#dcf3dc}.note{color:#777}dt{font-weight:600;float:left;"
          + "clear:left;width:16em}dd{margin-left:17em}pre{background:#f7f7f7;padding:.5em;"
          + "white-space:pre-wrap;overflow-wrap:anywhere}"
          + "footer{margin-top:2em;color:#777;font-size:.8em}";

  private final String title;
  private final List<StatusSection> sections = new CopyOnWriteArrayList<>();

  /** A page headed {@code title}. */
  public StatusPage(String title) {
    this.title = Objects.requireNonNull(title, "title");
  }

  /**
   * Adds a section; returns a handle whose {@code close()} removes it again (for a component that
   * stops).
   */
  public AutoCloseable add(StatusSection section) {
    Objects.requireNonNull(section, "section");
    sections.add(section);
    return () -> sections.remove(section);
  }

  /** The sections, in page order. */
  public List<StatusSection> sections() {
    List<StatusSection> sorted = new ArrayList<>(sections);
    sorted.sort(Comparator.comparingInt(StatusPage::orderOf));
    return sorted;
  }

  private static int orderOf(StatusSection section) {
    try {
      return section.order();
    } catch (RuntimeException e) {
      return Integer.MAX_VALUE;
    }
  }

  /** The whole page. Never throws; a failing section is shown as failed. */
  public String render(String footer) {
    StringBuilder out = new StringBuilder(8192);
    out.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>")
        .append(HtmlWriter.escape(title))
        .append("</title><style>")
        .append(STYLE)
        .append("</style></head>\n<body>\n<h1>")
        .append(HtmlWriter.escape(title))
        .append("</h1>\n");
    for (StatusSection section : sections()) {
      String heading;
      try {
        heading = section.title();
      } catch (RuntimeException e) {
        heading = section.getClass().getName();
      }
      int mark = out.length();
      out.append("<section><h2>").append(HtmlWriter.escape(heading)).append("</h2>\n");
      try {
        section.render(new HtmlWriter(out));
      } catch (RuntimeException | LinkageError e) {
        out.setLength(mark);
        out.append("<section><h2>").append(HtmlWriter.escape(heading)).append("</h2>\n");
        new HtmlWriter(out).note("This section failed to render: " + e);
        LOG.log(Level.DEBUG, "faultline: status section " + heading + " failed", e);
      }
      out.append("</section>\n");
    }
    out.append("<footer>").append(HtmlWriter.escape(footer)).append("</footer>\n");
    return out.append("</body></html>\n").toString();
  }
}
