package io.faultline.jooq.postgres;

import io.faultline.core.Loggers;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.core.metrics.CommonTags;
import io.faultline.core.metrics.MeterDoc;
import io.faultline.core.metrics.OwnedMeters;
import io.faultline.jooq.JooqConfigKeys;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * PostgreSQL's own warning signs of the Channel.io PostgreSQL outage, polled from a connection of
 * its own on a daemon thread: {@code pg_stat_slru} hit ratio per cache (from deltas between polls),
 * the age of the oldest open transaction, {@code mxid_age(datminmxid)}, and on PostgreSQL 16+ the
 * backends whose subtransaction cache overflowed. Raises {@code PG_MULTIXACT_SLRU_THRASH}, {@code
 * PG_LONG_TRANSACTION} and, when the database cannot be queried, {@code PG_HEALTH_UNREACHABLE}.
 *
 * <p>It never blocks the application: gauges read the last poll's values; every query has a short
 * timeout; a failure is a finding, never an exception. Given a {@link DataSource} it borrows one
 * connection per poll and returns it; given a JDBC URL it keeps one connection (with connect and
 * socket timeouts) and reconnects after a failure. {@link #close()} stops the thread, closes the
 * connection and removes the meters. Give each instance on one registry distinct {@link
 * Builder#tags(String...) tags} (e.g. {@code db=orders}): otherwise the second finds the first's
 * meters, reports nothing of its own, and says so once in the log.
 */
public final class PostgresHealthMetrics implements MeterBinder, AutoCloseable {

  private static final System.Logger LOG = Loggers.get(PostgresHealthMetrics.class.getName());
  private static final String SOURCE = "jooq.health";
  private static final List<String> SLRUS =
      List.of(
          "commit_timestamp",
          "multixact_member",
          "multixact_offset",
          "notify",
          "serializable",
          "subtransaction",
          "transaction",
          "other");
  private static final int QUERY_TIMEOUT_SECONDS = 5;

  private final DataSource dataSource;
  private final String jdbcUrl;
  private final Properties properties;

  /** The shortest time between polls. */
  static final Duration MIN_INTERVAL = Duration.ofMillis(100);

  private final Duration interval;
  private final Duration longTransaction;
  private final double thrashRatio;
  private final long minAccesses;
  private final Findings findings;
  private final Tags meterTags;

  private final HitRatios deltas = new HitRatios();
  private final Map<String, Double> ratios = new ConcurrentHashMap<>();
  private volatile double oldestSeconds;
  private volatile double multixactAge = Double.NaN;
  private volatile double overflowed = Double.NaN;
  private final AtomicLong pollsOk = new AtomicLong();
  private final AtomicLong pollsFailed = new AtomicLong();
  private final OwnedMeters registered = new OwnedMeters("a PostgreSQL health binder");
  private final Object pollLock = new Object();
  private ScheduledExecutorService poller;
  private Connection kept;
  private volatile HealthSample last;

  private PostgresHealthMetrics(Builder b) {
    this.dataSource = b.dataSource;
    this.jdbcUrl = b.jdbcUrl;
    this.properties = b.properties;
    this.interval = b.interval;
    this.longTransaction = b.longTransaction;
    this.thrashRatio = b.thrashRatio;
    this.minAccesses = b.minAccesses;
    this.findings = b.findings;
    this.meterTags = b.meterTags;
    SLRUS.forEach(s -> ratios.put(s, Double.NaN));
  }

  /** Polls through {@code dataSource}, one borrowed connection per poll. */
  public static Builder builder(DataSource dataSource) {
    return new Builder(Objects.requireNonNull(dataSource, "dataSource"), null, null, null);
  }

  /** Polls over a connection of its own to {@code jdbcUrl}. */
  public static Builder builder(String jdbcUrl, String user, String password) {
    return new Builder(null, Objects.requireNonNull(jdbcUrl, "jdbcUrl"), user, password);
  }

  /** Registers the gauges and starts polling (once, whatever the number of registries). */
  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    for (String slru : SLRUS) {
      keep(
          registry,
          HealthMeters.SLRU_HIT_RATIO,
          r ->
              HealthMeters.SLRU_HIT_RATIO
                  .gauge(ratios, byName -> byName.getOrDefault(slru, Double.NaN))
                  .tags(HealthMeters.SLRU_HIT_RATIO.tags(slru))
                  .tags(meterTags)
                  .register(r));
    }
    keep(
        registry,
        HealthMeters.OLDEST_TRANSACTION_AGE,
        r ->
            HealthMeters.OLDEST_TRANSACTION_AGE
                .gauge(this, m -> m.oldestSeconds)
                .tags(meterTags)
                .register(r));
    keep(
        registry,
        HealthMeters.MULTIXACT_AGE,
        r ->
            HealthMeters.MULTIXACT_AGE
                .gauge(this, m -> m.multixactAge)
                .tags(meterTags)
                .register(r));
    keep(
        registry,
        HealthMeters.SUBXACT_OVERFLOWED,
        r ->
            HealthMeters.SUBXACT_OVERFLOWED
                .gauge(this, m -> m.overflowed)
                .tags(meterTags)
                .register(r));
    keep(
        registry,
        HealthMeters.POLLS,
        r ->
            HealthMeters.POLLS
                .functionCounter(pollsOk, AtomicLong::get)
                .tags(HealthMeters.POLLS.tags("ok"))
                .tags(meterTags)
                .register(r));
    keep(
        registry,
        HealthMeters.POLLS,
        r ->
            HealthMeters.POLLS
                .functionCounter(pollsFailed, AtomicLong::get)
                .tags(HealthMeters.POLLS.tags("failed"))
                .tags(meterTags)
                .register(r));
    start();
  }

  private void keep(MeterRegistry registry, MeterDoc doc, Function<MeterRegistry, Meter> register) {
    registered.register(registry, doc.name(), register);
  }

  /** Starts the polling thread if it is not running; {@link #bindTo} calls it. */
  public synchronized void start() {
    if (poller != null) {
      return;
    }
    poller =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "faultline-pg-health");
              t.setDaemon(true);
              return t;
            });
    // The builder refuses less; a configured interval below it is raised (configuration never stops
    // the application).
    long millis = Math.max(MIN_INTERVAL.toMillis(), interval.toMillis());
    poller.scheduleWithFixedDelay(this::pollQuietly, 0, millis, TimeUnit.MILLISECONDS);
  }

  private void pollQuietly() {
    try {
      pollNow();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "faultline: PostgreSQL health poll failed", e);
    }
  }

  /**
   * Polls once on the calling thread and returns what it saw (null when the database could not be
   * queried, which is then a finding). The thread calls it on every interval; call it directly in
   * tests or for an on-demand status.
   */
  public HealthSample pollNow() {
    synchronized (pollLock) {
      Connection connection = null;
      try {
        connection = connection();
        HealthSample sample = sample(connection);
        pollsOk.incrementAndGet();
        publish(sample);
        last = sample;
        return sample;
      } catch (SQLException | RuntimeException e) {
        pollsFailed.incrementAndGet();
        dropKept();
        if (poolBusy(e)) {
          // The application's pool had no connection to lend (all in use until the pool's own
          // timeout): that says nothing about the database, so the findings stay as they were.
          return null;
        }
        report(
            List.of(
                Finding.of(HealthFindingTypes.UNREACHABLE, describeTarget())
                    .message("the health poll failed: " + e.getMessage())
                    .evidence("error", String.valueOf(e.getMessage()))
                    .build()));
        return null;
      } finally {
        if (dataSource != null && connection != null) {
          try {
            connection.close();
          } catch (SQLException ignored) {
            // returned to the pool or gone either way
          }
        }
      }
    }
  }

  /**
   * Whether the poll failed only because the application's pool lent no connection in time: a
   * pool's timeout without a cause (HikariCP gives the last connection failure as the cause when
   * the database itself cannot be reached).
   */
  private boolean poolBusy(Exception e) {
    return dataSource != null
        && e instanceof java.sql.SQLTransientConnectionException
        && e.getCause() == null;
  }

  /** What the last successful poll saw, or null. */
  public HealthSample lastSample() {
    return last;
  }

  private Connection connection() throws SQLException {
    if (dataSource != null) {
      return dataSource.getConnection();
    }
    if (kept == null || kept.isClosed()) {
      kept = DriverManager.getConnection(jdbcUrl, properties);
    }
    return kept;
  }

  private void dropKept() {
    if (kept != null) {
      try {
        kept.close();
      } catch (SQLException ignored) {
        // reconnect next time
      }
      kept = null;
    }
  }

  private HealthSample sample(Connection connection) throws SQLException {
    int major = connection.getMetaData().getDatabaseMajorVersion();
    Map<String, Double> hitRatios = new TreeMap<>();
    Map<String, Long> accesses = new TreeMap<>();
    double oldest = 0;
    int pid = 0;
    String application = "";
    long mxAge = -1;
    int overflowedBackends = -1;
    try (Statement s = connection.createStatement()) {
      s.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      if (major >= 13) {
        try (ResultSet rs = s.executeQuery("SELECT name, blks_hit, blks_read FROM pg_stat_slru")) {
          Map<String, long[]> sums = new TreeMap<>();
          while (rs.next()) {
            long[] sum =
                sums.computeIfAbsent(SlruNames.canonical(rs.getString(1)), k -> new long[2]);
            sum[0] += rs.getLong(2);
            sum[1] += rs.getLong(3);
          }
          sums.forEach(
              (name, sum) -> {
                HitRatios.Delta d = deltas.next(name, sum[0], sum[1]);
                if (d != null) {
                  hitRatios.put(name, d.ratio());
                  accesses.put(name, d.accesses());
                }
              });
        }
      }
      try (ResultSet rs =
          s.executeQuery(
              "SELECT pid, coalesce(application_name, ''),"
                  + " extract(epoch FROM clock_timestamp() - xact_start)"
                  + " FROM pg_stat_activity WHERE xact_start IS NOT NULL"
                  + " AND pid <> pg_backend_pid() ORDER BY xact_start LIMIT 1")) {
        if (rs.next()) {
          pid = rs.getInt(1);
          application = rs.getString(2);
          oldest = rs.getDouble(3);
        }
      }
      try (ResultSet rs =
          s.executeQuery(
              "SELECT mxid_age(datminmxid) FROM pg_database WHERE datname = current_database()")) {
        if (rs.next()) {
          mxAge = rs.getLong(1);
        }
      }
      if (major >= 16) {
        try (ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM pg_stat_get_backend_idset() AS b(id),"
                    + " LATERAL pg_stat_get_backend_subxact(b.id) AS x"
                    + " WHERE x.subxact_overflowed")) {
          if (rs.next()) {
            overflowedBackends = rs.getInt(1);
          }
        }
      }
    }
    return new HealthSample(
        hitRatios, accesses, oldest, pid, application, mxAge, overflowedBackends);
  }

  private void publish(HealthSample sample) {
    sample.hitRatios().forEach(ratios::put);
    oldestSeconds = sample.oldestTransactionSeconds();
    multixactAge = sample.multixactAge() < 0 ? Double.NaN : sample.multixactAge();
    overflowed = sample.overflowedBackends() < 0 ? Double.NaN : sample.overflowedBackends();
    report(
        HealthRules.findings(sample, thrashRatio, minAccesses, longTransaction, describeTarget()));
  }

  private void report(List<Finding> current) {
    if (findings != null) {
      findings.replaceAll(SOURCE, current);
    }
  }

  private String describeTarget() {
    if (jdbcUrl != null) {
      int query = jdbcUrl.indexOf('?');
      return query < 0 ? jdbcUrl : jdbcUrl.substring(0, query);
    }
    return "postgresql (DataSource)";
  }

  /** Stops polling, closes the connection and removes the meters. */
  @Override
  public synchronized void close() {
    if (poller != null) {
      poller.shutdownNow();
      try {
        poller.awaitTermination(QUERY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      poller = null;
    }
    synchronized (pollLock) {
      dropKept();
    }
    registered.removeAll();
  }

  /**
   * Configures a {@link PostgresHealthMetrics}; defaults are those of {@link JooqConfigKeys}.
   *
   * <p>The setters refuse a bad value at once: {@link NullPointerException} for null and {@link
   * IllegalArgumentException} for a value out of range, each naming the setter. {@link #config}
   * takes the configuration's values as they are (a bad key there was already reported and must not
   * stop the application).
   */
  public static final class Builder {
    private final DataSource dataSource;
    private final String jdbcUrl;
    private final Properties properties = new Properties();
    private Duration interval = JooqConfigKeys.HEALTH_INTERVAL.defaultValue();
    private Duration longTransaction = JooqConfigKeys.LONG_TRANSACTION.defaultValue();
    private double thrashRatio = JooqConfigKeys.SLRU_HIT_RATIO.defaultValue();
    private long minAccesses = JooqConfigKeys.SLRU_MIN_ACCESSES.defaultValue();
    private Findings findings;
    private Tags meterTags = Tags.empty();

    private Builder(DataSource dataSource, String jdbcUrl, String user, String password) {
      this.dataSource = dataSource;
      this.jdbcUrl = jdbcUrl;
      if (user != null) {
        properties.setProperty("user", user);
      }
      if (password != null) {
        properties.setProperty("password", password);
      }
      // pgjdbc's own timeouts, in seconds: a dead server must not hold the poller.
      properties.setProperty("connectTimeout", "5");
      properties.setProperty("socketTimeout", "10");
      properties.setProperty("ApplicationName", "faultline-health");
    }

    /** Reads {@code jooq.health.*} from {@code config}. */
    public Builder config(FaultlineConfig config) {
      interval = config.get(JooqConfigKeys.HEALTH_INTERVAL);
      longTransaction = config.get(JooqConfigKeys.LONG_TRANSACTION);
      thrashRatio = config.get(JooqConfigKeys.SLRU_HIT_RATIO);
      minAccesses = config.get(JooqConfigKeys.SLRU_MIN_ACCESSES);
      return this;
    }

    /** Time between polls ({@code jooq.health.interval}); at least 100 ms. */
    public Builder interval(Duration interval) {
      Objects.requireNonNull(interval, "interval");
      if (interval.compareTo(MIN_INTERVAL) < 0) {
        throw new IllegalArgumentException(
            "interval must be at least " + MIN_INTERVAL.toMillis() + "ms, was " + interval);
      }
      this.interval = interval;
      return this;
    }

    /** Open-transaction age that is flagged ({@code jooq.health.long-transaction}). */
    public Builder longTransaction(Duration age) {
      Objects.requireNonNull(age, "longTransaction");
      if (age.isNegative()) {
        throw new IllegalArgumentException("longTransaction must not be negative, was " + age);
      }
      this.longTransaction = age;
      return this;
    }

    /** MultiXact member hit ratio below which it is flagged, within 0..1. */
    public Builder multixactHitRatio(double ratio) {
      if (!(ratio >= 0 && ratio <= 1)) {
        throw new IllegalArgumentException("multixactHitRatio must be within 0..1, was " + ratio);
      }
      this.thrashRatio = ratio;
      return this;
    }

    /** Accesses per interval below which the hit ratio is not judged. */
    public Builder multixactMinAccesses(long accesses) {
      if (accesses < 0) {
        throw new IllegalArgumentException(
            "multixactMinAccesses must not be negative, was " + accesses);
      }
      this.minAccesses = accesses;
      return this;
    }

    /** Where findings go. */
    public Builder findings(Findings findings) {
      this.findings = Objects.requireNonNull(findings, "findings");
      return this;
    }

    /**
     * Tags added to every meter, so two databases on one registry are told apart: {@code tags("db",
     * "orders")}. Replaces earlier calls.
     *
     * @param keyValues key, value, key, value...
     * @throws NullPointerException when {@code keyValues}, a key or a value is null
     * @throws IllegalArgumentException on an odd count, or a key the meters set themselves ({@code
     *     slru}, {@code outcome})
     */
    public Builder tags(String... keyValues) {
      return tags(CommonTags.of("tags", keyValues));
    }

    /**
     * Tags added to every meter; see {@link #tags(String...)}.
     *
     * @throws NullPointerException when {@code tags} or one of them is null
     * @throws IllegalArgumentException on a key the meters set themselves
     */
    public Builder tags(Iterable<Tag> tags) {
      this.meterTags =
          CommonTags.refuseDeclared(
              "tags", CommonTags.of("tags", tags), new HealthMeters().meters());
      return this;
    }

    /** The binder; polling starts when it is bound (or {@link #start()}ed). */
    public PostgresHealthMetrics build() {
      return new PostgresHealthMetrics(this);
    }
  }
}
