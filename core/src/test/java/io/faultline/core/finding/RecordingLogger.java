package io.faultline.core.finding;

import java.text.MessageFormat;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link System.Logger} that keeps what was logged, so tests can check rate limiting. */
final class RecordingLogger implements System.Logger {

  final List<String> lines = new CopyOnWriteArrayList<>();

  @Override
  public String getName() {
    return "test";
  }

  @Override
  public boolean isLoggable(Level level) {
    return true;
  }

  @Override
  public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
    lines.add(level + " " + msg + (thrown == null ? "" : " " + thrown));
  }

  @Override
  public void log(Level level, ResourceBundle bundle, String format, Object... params) {
    lines.add(level + " " + (params == null ? format : MessageFormat.format(format, params)));
  }
}
