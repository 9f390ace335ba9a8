package io.faultline.jooq;

import io.faultline.core.Jfr;
import io.faultline.core.Loggers;
import io.faultline.jooq.internal.GuardMetrics;
import io.faultline.jooq.internal.Ledger;
import io.faultline.jooq.internal.Level;
import io.faultline.jooq.internal.SqlText;
import io.faultline.jooq.timeout.SessionSettings;
import io.faultline.jooq.timeout.StatementTimeoutException;
import io.faultline.jooq.timeout.TimeoutOverride;
import io.faultline.jooq.timeout.TimeoutSettings;
import io.faultline.jooq.timeout.TransactionTimeoutException;
import io.faultline.jooq.timeout.Watchdog;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.jooq.ConnectionProvider;
import org.jooq.ExecuteContext;
import org.jooq.TransactionContext;

/**
 * The statement timeout, the transaction deadline and the optional session timeouts of guarded
 * transactions: applies them when a top-level transaction begins (server-side settings sent only
 * when they change; PostgreSQL 17's {@code transaction_timeout} where the server has it, else a
 * {@link Watchdog}), enforces a passed deadline before statements and the commit, and turns the
 * server's timeout errors into {@link StatementTimeoutException} and {@link
 * TransactionTimeoutException}. Counts them in {@code faultline.jooq.timeouts}.
 */
final class TransactionTimeouts {

  private static final System.Logger LOG = Loggers.get(TransactionGuard.class.getName());

  /** The cancelled statement's length in a {@link StatementTimeoutException}'s message. */
  private static final int STATEMENT_CHARS = 200;

  private final TimeoutSettings settings;
  private final GuardMetrics metrics;
  private final SqlLiterals literals;
  private final SessionSettings sessionSettings = new SessionSettings();

  /**
   * Whether any transaction's deadline was given to the {@link Watchdog}: until then no statement
   * needs to be tracked for cancelling, and the end of a statement costs no ledger lookup.
   */
  private volatile boolean watchdogUsed;

  /** {@code literals}: how a timed-out statement is shown in its exception's message. */
  TransactionTimeouts(TimeoutSettings settings, GuardMetrics metrics, SqlLiterals literals) {
    this.settings = settings;
    this.metrics = metrics;
    this.literals = literals;
  }

  /** The settings in force. */
  TimeoutSettings settings() {
    return settings;
  }

  /** The top-level transaction of {@code ledger} has begun: applies its timeouts. */
  void apply(TransactionContext ctx, Ledger ledger) {
    TimeoutOverride override = TimeoutOverride.of(ctx.configuration());
    Duration deadline = settings.transaction();
    Duration statement = settings.statement();
    String local = "";
    if (override != null) {
      if (override.transactionTimeout() != null) {
        deadline = override.transactionTimeout();
      }
      if (override.statementTimeout() != null) {
        statement = override.statementTimeout();
        local = "SET LOCAL statement_timeout = " + statement.toMillis() + ";";
      }
    }
    ledger.statementTimeout(statement);
    if (!settings.hasSessionSettings() && local.isEmpty() && deadline.isZero()) {
      return;
    }
    ConnectionProvider provider = ctx.configuration().connectionProvider();
    Connection connection = null;
    try {
      connection = provider.acquire();
      boolean serverDeadline = !deadline.isZero() && serverMajor(connection) >= 17;
      if (serverDeadline) {
        local += "SET LOCAL transaction_timeout = " + deadline.toMillis() + ";";
      }
      String sql = sessionSettings.plan(connection, settings, local);
      ledger.connection(SessionSettings.physical(connection), !sql.isEmpty());
      if (!sql.isEmpty()) {
        send(connection, sql);
      }
      if (!deadline.isZero() && !serverDeadline) {
        Duration timeout = deadline;
        watchdogUsed = true;
        ledger.deadline(Watchdog.schedule(timeout, ledger::expire), timeout);
      } else if (serverDeadline) {
        ledger.deadline(null, deadline);
      }
    } finally {
      if (connection != null) {
        provider.release(connection);
      }
    }
  }

  private void send(Connection connection, String sql) {
    try {
      SessionSettings.execute(connection, sql);
    } catch (SQLException e) {
      sessionSettings.forget(connection);
      LOG.log(
          System.Logger.Level.WARNING,
          "faultline: could not apply the timeouts ({0}): {1}",
          sql,
          e.getMessage());
    }
  }

  private static int serverMajor(Connection connection) {
    try {
      DatabaseMetaData meta = connection.getMetaData();
      return meta.getDatabaseMajorVersion();
    } catch (SQLException | RuntimeException e) {
      return 0;
    }
  }

  /**
   * Before the top level's commit.
   *
   * @throws TransactionTimeoutException when its deadline passed (jOOQ then rolls it back)
   */
  void beforeCommit(Ledger ledger, Level top) {
    if (ledger.deadlineExpired()) {
      countDeadline(ledger);
      top.markCommitFailed();
      throw new TransactionTimeoutException(
          ledger.topCallSite().toString(), ledger.deadlineTimeout(), null);
    }
  }

  /**
   * Before a statement of the transaction.
   *
   * @throws TransactionTimeoutException when its deadline passed
   */
  void beforeStatement(Ledger ledger) {
    if (ledger.deadlineExpired()) {
      countDeadline(ledger);
      throw new TransactionTimeoutException(
          ledger.topCallSite().toString(), ledger.deadlineTimeout(), null);
    }
  }

  /** {@code statement} runs now: the watchdog cancels it when the deadline passes. */
  void statementStarted(Ledger ledger, Statement statement) {
    if (ledger.watched()) {
      ledger.running(statement);
    }
  }

  /** Whether a statement's end must be told to its ledger ({@link #statementEnded}). */
  boolean tracksStatements() {
    return watchdogUsed;
  }

  /** The running statement ended. */
  void statementEnded(Ledger ledger) {
    ledger.running(null);
  }

  /** A statement failed: replaces a timeout's exception with a clear one, and counts it. */
  void translate(ExecuteContext ctx, Ledger ledger) {
    if (ctx.exception() instanceof TransactionTimeoutException) {
      return;
    }
    SQLException sql = ctx.sqlException();
    String state = sql == null ? null : sql.getSQLState();
    String message = sql == null || sql.getMessage() == null ? "" : sql.getMessage();
    if (ledger.deadlineExpired() || "25P04".equals(state)) {
      countDeadline(ledger);
      ctx.exception(
          new TransactionTimeoutException(
              ledger.topCallSite().toString(), ledger.deadlineTimeout(), cause(ctx)));
    } else if ("57014".equals(state) && message.contains("statement timeout")) {
      metrics.statementTimedOut();
      Duration set = ledger.statementTimeout();
      record("statement", ledger, set);
      String shown = ctx.sql() == null ? null : SqlText.shown(ctx.sql(), literals, STATEMENT_CHARS);
      ctx.exception(new StatementTimeoutException(shown, set.isZero() ? null : set, cause(ctx)));
    } else if ("55P03".equals(state) && message.contains("lock timeout")) {
      metrics.lockTimedOut();
      record("lock", ledger, settings.lock());
    }
  }

  /** The JDK Flight Recorder event of a timeout, when a recording wants it. */
  private static void record(String kind, Ledger ledger, Duration timeout) {
    if (Jfr.recording()) {
      GuardedTimeoutRecording.commit(
          kind, ledger.topCallSite().toString(), timeout == null ? 0 : timeout.toMillis());
    }
  }

  /**
   * The cause of a timeout exception: jOOQ's exception, whose message starts with the SQL as jOOQ
   * rendered it ({@code SQL [...]}, literals included), only under {@link SqlLiterals#KEEP};
   * otherwise the driver's exception under it, which keeps the SQL state and the server's message.
   */
  private Throwable cause(ExecuteContext ctx) {
    SQLException driver = ctx.sqlException();
    return literals == SqlLiterals.KEEP || driver == null ? ctx.exception() : driver;
  }

  /**
   * The top-level transaction of {@code ledger} is about to roll back: a SET sent in it is undone
   * by the server, so it is forgotten now, before the delegate hands the connection back to its
   * pool for another transaction. (A managed transaction's ledger never sends one.)
   */
  void rollingBack(Ledger ledger) {
    if (ledger.settingsSent() && ledger.connection() != null) {
      sessionSettings.forget(ledger.connection());
    }
  }

  /** The top-level transaction ended: stops its watchdog. */
  void transactionEnded(Ledger ledger) {
    ledger.cancelDeadline();
    ledger.running(null);
  }

  private void countDeadline(Ledger ledger) {
    if (ledger.claimDeadlineCount()) {
      metrics.transactionTimedOut();
      record("transaction", ledger, ledger.deadlineTimeout());
    }
  }
}
