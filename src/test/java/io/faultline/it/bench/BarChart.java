package io.faultline.it.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * A grouped bar chart drawn with Java2D (no plotting library to install): one group per category,
 * one bar per series, an optional dashed goal line, values printed on the bars.
 */
final class BarChart {

  private static final Color[] COLORS = {
    new Color(0x9e9e9e), new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c)
  };

  private final String title;
  private final String yLabel;
  private final List<String> categories;
  private final List<String> series;
  private final double[][] values;
  private Double goal;
  private String goalLabel;

  /** {@code values[series][category]}. */
  BarChart(
      String title,
      String yLabel,
      List<String> categories,
      List<String> series,
      double[][] values) {
    this.title = title;
    this.yLabel = yLabel;
    this.categories = categories;
    this.series = series;
    this.values = values;
  }

  BarChart goal(double value, String label) {
    this.goal = value;
    this.goalLabel = label;
    return this;
  }

  void write(Path png) throws IOException {
    int width = 900;
    int height = 460;
    int left = 80;
    int right = 20;
    int top = 50;
    int bottom = 90;
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(
        RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, width, height);
    double max = goal == null ? 0 : goal;
    for (double[] row : values) {
      for (double v : row) {
        if (Double.isFinite(v)) {
          max = Math.max(max, v);
        }
      }
    }
    max = max <= 0 ? 1 : max * 1.15;
    int plotW = width - left - right;
    int plotH = height - top - bottom;
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
    g.drawString(title, left, 28);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    for (int i = 0; i <= 5; i++) {
      double v = max * i / 5;
      int y = top + plotH - (int) (plotH * i / 5.0);
      g.setColor(new Color(0xeeeeee));
      g.drawLine(left, y, left + plotW, y);
      g.setColor(Color.DARK_GRAY);
      g.drawString(format(v), 8, y + 4);
    }
    g.drawString(yLabel, 8, top - 8);
    int groups = categories.size();
    double groupW = plotW / (double) groups;
    double barW = groupW * 0.8 / series.size();
    for (int c = 0; c < groups; c++) {
      for (int s = 0; s < series.size(); s++) {
        double v = values[s][c];
        if (!Double.isFinite(v)) {
          continue;
        }
        int h = (int) (plotH * v / max);
        int x = (int) (left + c * groupW + groupW * 0.1 + s * barW);
        g.setColor(COLORS[s % COLORS.length]);
        g.fillRect(x, top + plotH - h, (int) barW - 2, h);
        g.setColor(Color.BLACK);
        g.drawString(format(v), x, top + plotH - h - 3);
      }
      g.setColor(Color.BLACK);
      String label = categories.get(c);
      int lw = g.getFontMetrics().stringWidth(label);
      g.drawString(label, (int) (left + c * groupW + (groupW - lw) / 2), top + plotH + 16);
    }
    if (goal != null) {
      int y = top + plotH - (int) (plotH * goal / max);
      g.setColor(new Color(0xd62728));
      g.setStroke(
          new BasicStroke(
              1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1, new float[] {6, 4}, 0));
      g.drawLine(left, y, left + plotW, y);
      g.drawString(goalLabel, left + plotW - g.getFontMetrics().stringWidth(goalLabel), y - 4);
    }
    int lx = left;
    for (int s = 0; s < series.size(); s++) {
      g.setColor(COLORS[s % COLORS.length]);
      g.fillRect(lx, height - 30, 12, 12);
      g.setColor(Color.BLACK);
      g.drawString(series.get(s), lx + 16, height - 20);
      lx += 40 + g.getFontMetrics().stringWidth(series.get(s));
    }
    g.dispose();
    Files.createDirectories(png.toAbsolutePath().getParent());
    ImageIO.write(image, "png", png.toFile());
  }

  private static String format(double v) {
    if (Math.abs(v) >= 1000) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    if (Math.abs(v) >= 10) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    return String.format(Locale.ROOT, "%.3f", v);
  }
}
