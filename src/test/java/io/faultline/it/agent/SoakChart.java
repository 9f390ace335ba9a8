package io.faultline.it.agent;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

/**
 * The soak's chart: small multiples, one panel per {@link SoakSample.Series}, time on the x axis in
 * minutes, the warm-up shaded grey and each fault's window red. Drawn with Java2D, headless.
 */
final class SoakChart {

  private static final int COLUMNS = 3;
  private static final int PANEL_W = 520;
  private static final int PANEL_H = 250;
  private static final int TITLE_H = 40;
  private static final Color LINE = new Color(0x1f, 0x5f, 0xa8);
  private static final Color SECOND = new Color(0xd9, 0x6b, 0x00);
  private static final Color FAULT = new Color(0xe0, 0x40, 0x40, 70);
  private static final Color WARM_UP = new Color(0, 0, 0, 25);

  private SoakChart() {}

  static void write(Soak.Run run, String title, Path png) throws IOException {
    System.setProperty("java.awt.headless", "true");
    SoakSample.Series[] all = SoakSample.Series.values();
    int rows = (all.length + COLUMNS - 1) / COLUMNS;
    BufferedImage image =
        new BufferedImage(COLUMNS * PANEL_W, TITLE_H + rows * PANEL_H, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, image.getWidth(), image.getHeight());
      g.setColor(Color.BLACK);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
      g.drawString(title, 12, 26);
      for (int i = 0; i < all.length; i++) {
        panel(g, run, all[i], (i % COLUMNS) * PANEL_W, TITLE_H + (i / COLUMNS) * PANEL_H);
      }
    } finally {
      g.dispose();
    }
    ImageIO.write(image, "png", png.toFile());
  }

  private static void panel(Graphics2D g, Soak.Run run, SoakSample.Series series, int x0, int y0) {
    int left = x0 + 58;
    int right = x0 + PANEL_W - 14;
    int top = y0 + 26;
    int bottom = y0 + PANEL_H - 30;
    List<SoakSample> samples = run.samples();
    double tMax = Math.max(1, run.schedule().total.toSeconds());
    double lo = series.min(samples);
    double hi = series.max(samples);
    if (series == SoakSample.Series.FINDINGS) {
      lo = Math.min(lo, samples.stream().mapToDouble(SoakSample::serviceFindings).min().orElse(0));
    }
    if (series == SoakSample.Series.PRODUCED) {
      hi = Math.max(hi, samples.stream().mapToDouble(SoakSample::consumed).max().orElse(hi));
    }
    // Footprints from 0, so a flat line looks flat and a small drift is not magnified.
    lo = Math.min(0, lo);
    hi = hi <= lo ? lo + 1 : hi * 1.1;
    double yLo = lo;
    double yHi = hi;

    g.setColor(WARM_UP);
    g.fillRect(
        left, top, (int) ((right - left) * run.schedule().warmUp.toSeconds() / tMax), bottom - top);
    g.setColor(FAULT);
    for (Soak.FaultWindow w : run.faults()) {
      int a = left + (int) ((right - left) * w.start() / tMax);
      int b = left + (int) ((right - left) * w.end() / tMax);
      g.fillRect(a, top, Math.max(2, b - a), bottom - top);
    }
    g.setColor(Color.GRAY);
    g.drawRect(left, top, right - left, bottom - top);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    for (int i = 0; i <= 4; i++) {
      double v = yLo + (yHi - yLo) * i / 4;
      int y = bottom - (bottom - top) * i / 4;
      g.setColor(new Color(0, 0, 0, 30));
      g.drawLine(left, y, right, y);
      g.setColor(Color.DARK_GRAY);
      g.drawString(label(v), x0 + 4, y + 4);
    }
    int minutes = (int) Math.ceil(tMax / 60);
    int step = minutes > 30 ? 10 : minutes > 10 ? 2 : 1;
    for (int m = 0; m <= minutes; m += step) {
      int x = left + (int) ((right - left) * m * 60 / tMax);
      g.drawString(m + "", x - 3, bottom + 14);
    }
    g.drawString("min", right - 18, bottom + 26);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
    g.drawString(series.title, left, y0 + 18);

    line(g, samples, series::of, LINE, left, right, top, bottom, tMax, yLo, yHi);
    if (series == SoakSample.Series.FINDINGS) {
      line(
          g,
          samples,
          SoakSample::serviceFindings,
          SECOND,
          left,
          right,
          top,
          bottom,
          tMax,
          yLo,
          yHi);
      g.setColor(SECOND);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
      g.drawString("service", right - 45, y0 + 18);
    }
    if (series == SoakSample.Series.PRODUCED) {
      line(g, samples, SoakSample::consumed, SECOND, left, right, top, bottom, tMax, yLo, yHi);
      g.setColor(SECOND);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
      g.drawString("consumed", right - 60, y0 + 18);
    }
  }

  private static void line(
      Graphics2D g,
      List<SoakSample> samples,
      ToDoubleFunction<SoakSample> value,
      Color color,
      int left,
      int right,
      int top,
      int bottom,
      double tMax,
      double yLo,
      double yHi) {
    g.setColor(color);
    g.setStroke(new BasicStroke(1.6f));
    int px = -1;
    int py = -1;
    for (SoakSample s : samples) {
      int x = left + (int) ((right - left) * s.seconds() / tMax);
      int y = bottom - (int) ((bottom - top) * (value.applyAsDouble(s) - yLo) / (yHi - yLo));
      if (px >= 0) {
        g.drawLine(px, py, x, y);
      }
      px = x;
      py = y;
    }
    g.setStroke(new BasicStroke(1f));
  }

  private static String label(double v) {
    return Math.abs(v) >= 100 || v == Math.rint(v)
        ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.1f", v);
  }
}
