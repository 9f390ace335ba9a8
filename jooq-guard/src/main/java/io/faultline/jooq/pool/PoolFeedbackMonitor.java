package io.faultline.jooq.pool;

import io.faultline.core.Loggers;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.core.metrics.CommonTags;
import io.faultline.core.metrics.LateRegistry;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import javax.sql.DataSource;

/**
 * Watches one HikariCP pool beside its database's lock waits and raises {@code
 * POOL_GROWTH_UNDER_CONTENTION} when the pool grows toward its maximum while contention rises (the
 * Channel.io PostgreSQL outage's feedback loop); see {@link PoolFeedback} for the rule.
 *
 * <pre>{@code
 * PoolFeedbackMonitor monitor =
 *     PoolFeedbackMonitor.builder(hikariDataSource)
 *         .findings(findings)
 *         .meterRegistry(registry)
 *         .start(Duration.ofSeconds(5));
 * }</pre>
 *
 * <p>The pool is read by method name (no HikariCP dependency). The contention query runs on a
 * connection of the monitor's own, opened from the pool's {@code jdbcUrl} and credentials unless
 * {@link Builder#monitoringDataSource} or {@link Builder#monitoringJdbcUrl} says otherwise; it
 * never borrows from the pool it watches. Readings run on a daemon thread; nothing here throws into
 * the application: a failed reading is logged and counted. The monitor stops by itself when the
 * pool is closed or collected.
 */
public final class PoolFeedbackMonitor implements AutoCloseable {

  private static final System.Logger LOG = Loggers.get(PoolFeedbackMonitor.class.getName());

  /** The shortest time between readings. */
  static final Duration MIN_INTERVAL = Duration.ofMillis(50);

  /** One reading and what was concluded from it. */
  public record Reading(PoolReading pool, ContentionReading contention, Optional<Finding> finding) {
    @Override
    public String toString() {
      return pool + " | " + contention + (finding.isPresent() ? " | RAISED" : "");
    }
  }

  private final HikariPoolReader pool;
  private final java.util.function.Function<HikariPoolReader, ContentionProbe> probes;
  private ContentionProbe probe;
  private final PoolFeedback feedback;
  private final Findings findings;
  private final String source;
  private final LongSupplier nanoClock;
  private final AtomicLong ok = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong unavailable = new AtomicLong();
  // Guarded by itself, with boundTo: the registry the meters went into (see bindMeters).
  private final List<Meter> meters = new ArrayList<>();
  private MeterRegistry boundTo;
  private final Tags meterTags;
  private final Object readLock = new Object();
  private volatile double lockWaiters = Double.NaN;
  private volatile double slowest = Double.NaN;
  private volatile Reading last;
  private boolean failing;
  private ScheduledExecutorService ownExecutor;
  private ScheduledFuture<?> task;
  private volatile boolean closed;

  private PoolFeedbackMonitor(Builder b, HikariPoolReader pool) {
    this.pool = pool;
    this.probes = b::probe;
    this.feedback = new PoolFeedback(b.thresholds);
    this.findings = b.findings;
    this.meterTags = b.meterTags;
    this.nanoClock = b.nanoClock;
    this.source = PoolFeedbackConfigKeys.FEATURE + "/" + pool.poolName();
    if (b.registry != null) {
      b.registry.whenReady(this::bindMeters);
    }
  }

  /** Registers the meters into {@code r}, unless the monitor closed first. */
  private void bindMeters(MeterRegistry r) {
    synchronized (meters) {
      if (closed || boundTo != null) {
        return;
      }
      boundTo = r;
      registerMeters(r, pool.poolName());
    }
  }

  /** Watches {@code appDataSource}, which should be a HikariCP pool (or unwrap to one). */
  public static Builder builder(DataSource appDataSource) {
    return new Builder(Objects.requireNonNull(appDataSource, "appDataSource"), null);
  }

  /**
   * Watches an object that should be a {@code com.zaxxer.hikari.HikariDataSource}, for callers that
   * hold it only as an {@code Object} (the agent, across class loaders).
   */
  public static Builder builderForHikari(Object hikariDataSource) {
    return new Builder(null, Objects.requireNonNull(hikariDataSource, "hikariDataSource"));
  }

  private void registerMeters(MeterRegistry r, String poolName) {
    meters.add(
        PoolFeedbackMeters.LOCK_WAITERS
            .gauge(this, m -> m.lockWaiters)
            .tags(PoolFeedbackMeters.LOCK_WAITERS.tags(poolName))
            .tags(meterTags)
            .register(r));
    meters.add(
        PoolFeedbackMeters.SLOWEST_STATEMENT
            .gauge(this, m -> m.slowest)
            .tags(PoolFeedbackMeters.SLOWEST_STATEMENT.tags(poolName))
            .tags(meterTags)
            .register(r));
    meters.add(counter(r, poolName, "ok", ok));
    meters.add(counter(r, poolName, "failed", failed));
    meters.add(counter(r, poolName, "unavailable", unavailable));
  }

  private Meter counter(MeterRegistry r, String poolName, String outcome, AtomicLong n) {
    return PoolFeedbackMeters.READINGS
        .functionCounter(n, AtomicLong::get)
        .tags(PoolFeedbackMeters.READINGS.tags(poolName, outcome))
        .tags(meterTags)
        .register(r);
  }

  private synchronized void schedule(ScheduledExecutorService executor, Duration interval) {
    ScheduledExecutorService ex = executor;
    if (ex == null) {
      ownExecutor =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "faultline-pool-feedback-" + pool.poolName());
                t.setDaemon(true);
                return t;
              });
      ex = ownExecutor;
    }
    // start(Duration) refuses less; a configured interval below it is raised (configuration never
    // stops the application).
    long millis = Math.max(MIN_INTERVAL.toMillis(), interval.toMillis());
    // The first reading one interval on, not at once: a pool starts with its service, whose start
    // should not also pay for a monitoring connection, and a finding needs a window of readings.
    task = ex.scheduleWithFixedDelay(this::readQuietly, millis, millis, TimeUnit.MILLISECONDS);
  }

  private void readQuietly() {
    try {
      readNow();
    } catch (RuntimeException | LinkageError e) {
      LOG.log(System.Logger.Level.WARNING, "faultline: pool feedback reading failed", e);
    }
  }

  /**
   * Reads the pool and the database once on the calling thread, updates the finding and returns
   * what it saw; empty when the pool is not started, closed or gone, or the database could not be
   * queried. The monitor's thread calls it every interval; tests may call it directly.
   */
  public Optional<Reading> readNow() {
    synchronized (readLock) {
      if (closed) {
        return Optional.empty();
      }
      Optional<PoolReading> poolReading = pool.read();
      if (poolReading.isEmpty()) {
        unavailable.incrementAndGet();
        if (pool.gone()) {
          LOG.log(
              System.Logger.Level.INFO,
              "faultline: pool {0} is closed; its feedback monitor stops",
              pool.poolName());
          close();
        }
        return Optional.empty();
      }
      if (probe == null) {
        // Opened at the first reading of a started pool: a pool configured by setters after its
        // construction (Spring Boot's) has its jdbcUrl only by then.
        probe = probes.apply(pool);
        if (probe == null) {
          LOG.log(
              System.Logger.Level.INFO,
              "faultline: pool feedback is off for {0}: it has no jdbcUrl to open a monitoring"
                  + " connection from; give the monitor a monitoringDataSource or"
                  + " monitoringJdbcUrl",
              pool.poolName());
          close();
          return Optional.empty();
        }
      }
      ContentionReading contention;
      try {
        contention = probe.read();
      } catch (SQLException | RuntimeException e) {
        failed.incrementAndGet();
        if (!failing) {
          failing = true;
          LOG.log(
              System.Logger.Level.WARNING,
              "faultline: pool feedback for {0} cannot query pg_stat_activity ({1}); the pool is"
                  + " not judged until it can",
              pool.poolName(),
              e.getMessage());
        }
        return Optional.empty();
      }
      failing = false;
      ok.incrementAndGet();
      lockWaiters = contention.lockWaiters();
      slowest = contention.slowestStatementSeconds();
      Optional<Finding> finding =
          feedback.next(nanoClock.getAsLong(), poolReading.get(), contention);
      if (findings != null) {
        findings.replaceAll(source, finding.map(List::of).orElse(List.of()));
      }
      Reading reading = new Reading(poolReading.get(), contention, finding);
      last = reading;
      return Optional.of(reading);
    }
  }

  /** The last successful reading, or null. */
  public Reading lastReading() {
    return last;
  }

  /** The watched pool's name. */
  public String poolName() {
    return pool.poolName();
  }

  /** Whether {@link #close()} was called or the pool went away. */
  public boolean isClosed() {
    return closed;
  }

  /** Stops reading, closes the monitoring connection, clears the finding and removes the meters. */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      if (task != null) {
        task.cancel(false);
      }
      if (ownExecutor != null) {
        ownExecutor.shutdown();
      }
    }
    synchronized (readLock) {
      if (probe != null) {
        probe.close();
      }
    }
    if (findings != null) {
      findings.replaceAll(source, List.of());
    }
    synchronized (meters) {
      if (boundTo != null) {
        meters.forEach(boundTo::remove);
      }
    }
  }

  /**
   * Configures a {@link PoolFeedbackMonitor}; defaults are those of {@link PoolFeedbackConfigKeys}.
   *
   * <p>The setters refuse a bad value at once: {@link NullPointerException} for null and {@link
   * IllegalArgumentException} for a value out of range, each naming the setter. {@link #config}
   * takes the configuration's values as they are (a bad key there was already reported, and
   * thresholds out of range fall back to the defaults with a warning).
   */
  public static final class Builder {
    private final DataSource appDataSource;
    private final Object hikari;
    private DataSource monitoring;
    private String jdbcUrl;
    private String user;
    private String password;
    private PoolFeedbackThresholds thresholds = PoolFeedbackThresholds.defaults();
    private Duration interval = PoolFeedbackConfigKeys.INTERVAL.defaultValue();
    private boolean enabled = true;
    private Findings findings;
    private LateRegistry registry;
    private Tags meterTags = Tags.empty();
    private ScheduledExecutorService executor;
    private LongSupplier nanoClock = System::nanoTime;

    private Builder(DataSource appDataSource, Object hikari) {
      this.appDataSource = appDataSource;
      this.hikari = hikari;
    }

    /** Reads {@code jooq.pool-feedback} and its thresholds and interval from {@code config}. */
    public Builder config(FaultlineConfig config) {
      enabled = config.get(PoolFeedbackConfigKeys.ENABLED);
      interval = config.get(PoolFeedbackConfigKeys.INTERVAL);
      thresholds = PoolFeedbackThresholds.from(config);
      return this;
    }

    /** When growth under contention is called a feedback loop. */
    public Builder thresholds(PoolFeedbackThresholds thresholds) {
      this.thresholds = Objects.requireNonNull(thresholds, "thresholds");
      return this;
    }

    /** Queries contention through this data source (not the watched pool: give it its own). */
    public Builder monitoringDataSource(DataSource monitoring) {
      this.monitoring = Objects.requireNonNull(monitoring, "monitoring");
      return this;
    }

    /** Queries contention over a connection of its own to {@code jdbcUrl}. */
    public Builder monitoringJdbcUrl(String jdbcUrl, String user, String password) {
      this.jdbcUrl = Objects.requireNonNull(jdbcUrl, "jdbcUrl");
      this.user = user;
      this.password = password;
      return this;
    }

    /** Where the finding goes. */
    public Builder findings(Findings findings) {
      this.findings = Objects.requireNonNull(findings, "findings");
      return this;
    }

    /** Where the lock-waiter and statement-age gauges go. */
    public Builder meterRegistry(MeterRegistry registry) {
      this.registry = LateRegistry.of(Objects.requireNonNull(registry, "meterRegistry"));
      return this;
    }

    /**
     * Where the gauges go, for a caller whose registry may not exist yet (the agent's, created
     * after the application's start-up): they are registered once it does.
     */
    public Builder lateMeterRegistry(LateRegistry registry) {
      this.registry = Objects.requireNonNull(registry, "lateMeterRegistry");
      return this;
    }

    /**
     * Tags added to every meter (the pool's name is a tag already), e.g. {@code tags("db",
     * "orders")}. Replaces earlier calls.
     *
     * @param keyValues key, value, key, value...
     * @throws NullPointerException when {@code keyValues}, a key or a value is null
     * @throws IllegalArgumentException on an odd count, or a key the meters set themselves ({@code
     *     pool}, {@code outcome})
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
              "tags", CommonTags.of("tags", tags), new PoolFeedbackMeters().meters());
      return this;
    }

    /** Runs readings on {@code executor} instead of a daemon thread of its own. */
    public Builder executor(ScheduledExecutorService executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /** The clock of the readings' timestamps, for tests ({@link System#nanoTime} otherwise). */
    public Builder nanoClock(LongSupplier nanoClock) {
      this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
      return this;
    }

    /**
     * The monitor, not yet reading (call {@link PoolFeedbackMonitor#readNow()}); empty when the
     * data source is not HikariCP (logged at INFO). The monitoring connection is opened at the
     * first reading of the started pool; a pool without a {@code jdbcUrl} and no monitoring source
     * given stops its monitor then, with one INFO line.
     */
    public Optional<PoolFeedbackMonitor> build() {
      try {
        Optional<HikariPoolReader> reader =
            hikari != null ? HikariPoolReader.ofHikari(hikari) : HikariPoolReader.of(appDataSource);
        if (reader.isEmpty()) {
          return Optional.empty();
        }
        return Optional.of(new PoolFeedbackMonitor(this, reader.get()));
      } catch (RuntimeException | LinkageError e) {
        LOG.log(System.Logger.Level.WARNING, "faultline: pool feedback could not start", e);
        return Optional.empty();
      }
    }

    private ContentionProbe probe(HikariPoolReader reader) {
      if (monitoring != null) {
        return ContentionProbe.using(monitoring);
      }
      if (jdbcUrl != null) {
        return ContentionProbe.connectingTo(jdbcUrl, user, password, reader.classLoader());
      }
      String url = reader.jdbcUrl();
      if (url == null) {
        return null;
      }
      return ContentionProbe.connectingTo(
          url, reader.username(), reader.password(), reader.classLoader());
    }

    /**
     * Builds and starts reading every {@code interval} (at least 50 ms), the first reading one
     * interval from now; empty when {@code jooq.pool-feedback} is off or {@link #build()} is.
     * Throws only for a bad {@code interval}.
     */
    public Optional<PoolFeedbackMonitor> start(Duration interval) {
      Objects.requireNonNull(interval, "interval");
      if (interval.compareTo(MIN_INTERVAL) < 0) {
        throw new IllegalArgumentException(
            "interval must be at least " + MIN_INTERVAL.toMillis() + "ms, was " + interval);
      }
      this.interval = interval;
      return start();
    }

    /** Builds and starts reading every {@code jooq.pool-feedback.interval}. Never throws. */
    public Optional<PoolFeedbackMonitor> start() {
      if (!enabled) {
        LOG.log(System.Logger.Level.INFO, "faultline: jooq.pool-feedback is off");
        return Optional.empty();
      }
      Optional<PoolFeedbackMonitor> monitor = build();
      try {
        monitor.ifPresent(m -> m.schedule(executor, interval));
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "faultline: pool feedback could not start", e);
        monitor.ifPresent(PoolFeedbackMonitor::close);
        return Optional.empty();
      }
      return monitor;
    }
  }
}
