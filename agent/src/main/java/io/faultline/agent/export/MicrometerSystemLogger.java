package io.faultline.agent.export;

import io.faultline.core.Loggers;
import io.micrometer.common.util.internal.logging.AbstractInternalLogger;
import io.micrometer.common.util.internal.logging.InternalLogger;
import io.micrometer.common.util.internal.logging.InternalLoggerFactory;
import java.lang.System.Logger.Level;

/**
 * Micrometer's internal logging, written through the agent's own {@link System.Logger}s ({@link
 * Loggers}), which leave {@code java.util.logging} to the application; Micrometer's {@code
 * java.util.logging} factory would create the {@code LogManager} on the agent's start thread,
 * racing a {@code main} that sets {@code java.util.logging.manager}.
 */
final class MicrometerSystemLogger extends AbstractInternalLogger {

  private static final long serialVersionUID = 1L;

  /** The factory that hands these loggers to the agent's copy of Micrometer. */
  static final InternalLoggerFactory FACTORY =
      new InternalLoggerFactory() {
        @Override
        protected InternalLogger newInstance(String name) {
          return new MicrometerSystemLogger(name);
        }
      };

  private final transient System.Logger logger;

  MicrometerSystemLogger(String name) {
    super(name);
    this.logger = Loggers.get(name);
  }

  /**
   * {@code format} with each {@code {}} replaced by the next argument, as Micrometer writes its
   * messages; an argument left over that is a {@link Throwable} is the line's cause.
   */
  static String format(String format, Object... args) {
    if (format == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder(format.length() + 16);
    int from = 0;
    int used = 0;
    int at;
    while (used < args.length && (at = format.indexOf("{}", from)) >= 0) {
      out.append(format, from, at).append(args[used++]);
      from = at + 2;
    }
    return out.append(format, from, format.length()).toString();
  }

  /** The cause among {@code args}: a last argument no placeholder used that is a throwable. */
  static Throwable cause(String format, Object... args) {
    if (args.length == 0 || !(args[args.length - 1] instanceof Throwable t)) {
      return null;
    }
    int placeholders = 0;
    for (int at = format == null ? -1 : format.indexOf("{}");
        at >= 0;
        at = format.indexOf("{}", at + 2)) {
      placeholders++;
    }
    return placeholders < args.length ? t : null;
  }

  private void emitFormatted(Level level, String format, Object[] arguments) {
    if (!logger.isLoggable(level)) {
      return;
    }
    // A cause is an argument no placeholder takes, so format leaves it out by itself.
    Object[] args = arguments == null ? new Object[0] : arguments;
    logger.log(level, format(format, args), cause(format, args));
  }

  private void emitMessage(Level level, String message, Throwable cause) {
    if (logger.isLoggable(level)) {
      logger.log(level, message, cause);
    }
  }

  @Override
  public boolean isTraceEnabled() {
    return logger.isLoggable(Level.TRACE);
  }

  @Override
  public void trace(String msg) {
    emitMessage(Level.TRACE, msg, null);
  }

  @Override
  public void trace(String format, Object arg) {
    emitFormatted(Level.TRACE, format, new Object[] {arg});
  }

  @Override
  public void trace(String format, Object argA, Object argB) {
    emitFormatted(Level.TRACE, format, new Object[] {argA, argB});
  }

  @Override
  public void trace(String format, Object... arguments) {
    emitFormatted(Level.TRACE, format, arguments);
  }

  @Override
  public void trace(String msg, Throwable t) {
    emitMessage(Level.TRACE, msg, t);
  }

  @Override
  public boolean isDebugEnabled() {
    return logger.isLoggable(Level.DEBUG);
  }

  @Override
  public void debug(String msg) {
    emitMessage(Level.DEBUG, msg, null);
  }

  @Override
  public void debug(String format, Object arg) {
    emitFormatted(Level.DEBUG, format, new Object[] {arg});
  }

  @Override
  public void debug(String format, Object argA, Object argB) {
    emitFormatted(Level.DEBUG, format, new Object[] {argA, argB});
  }

  @Override
  public void debug(String format, Object... arguments) {
    emitFormatted(Level.DEBUG, format, arguments);
  }

  @Override
  public void debug(String msg, Throwable t) {
    emitMessage(Level.DEBUG, msg, t);
  }

  @Override
  public boolean isInfoEnabled() {
    return logger.isLoggable(Level.INFO);
  }

  @Override
  public void info(String msg) {
    emitMessage(Level.INFO, msg, null);
  }

  @Override
  public void info(String format, Object arg) {
    emitFormatted(Level.INFO, format, new Object[] {arg});
  }

  @Override
  public void info(String format, Object argA, Object argB) {
    emitFormatted(Level.INFO, format, new Object[] {argA, argB});
  }

  @Override
  public void info(String format, Object... arguments) {
    emitFormatted(Level.INFO, format, arguments);
  }

  @Override
  public void info(String msg, Throwable t) {
    emitMessage(Level.INFO, msg, t);
  }

  @Override
  public boolean isWarnEnabled() {
    return logger.isLoggable(Level.WARNING);
  }

  @Override
  public void warn(String msg) {
    emitMessage(Level.WARNING, msg, null);
  }

  @Override
  public void warn(String format, Object arg) {
    emitFormatted(Level.WARNING, format, new Object[] {arg});
  }

  @Override
  public void warn(String format, Object argA, Object argB) {
    emitFormatted(Level.WARNING, format, new Object[] {argA, argB});
  }

  @Override
  public void warn(String format, Object... arguments) {
    emitFormatted(Level.WARNING, format, arguments);
  }

  @Override
  public void warn(String msg, Throwable t) {
    emitMessage(Level.WARNING, msg, t);
  }

  @Override
  public boolean isErrorEnabled() {
    return logger.isLoggable(Level.ERROR);
  }

  @Override
  public void error(String msg) {
    emitMessage(Level.ERROR, msg, null);
  }

  @Override
  public void error(String format, Object arg) {
    emitFormatted(Level.ERROR, format, new Object[] {arg});
  }

  @Override
  public void error(String format, Object argA, Object argB) {
    emitFormatted(Level.ERROR, format, new Object[] {argA, argB});
  }

  @Override
  public void error(String format, Object... arguments) {
    emitFormatted(Level.ERROR, format, arguments);
  }

  @Override
  public void error(String msg, Throwable t) {
    emitMessage(Level.ERROR, msg, t);
  }
}
