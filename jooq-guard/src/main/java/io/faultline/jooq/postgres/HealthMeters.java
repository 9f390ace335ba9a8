package io.faultline.jooq.postgres;

import io.faultline.core.metrics.MeterCatalog;
import io.faultline.core.metrics.MeterDoc;
import io.faultline.jooq.JooqConfigKeys;
import java.util.List;

/** The meters of {@link PostgresHealthMetrics}. */
public final class HealthMeters implements MeterCatalog {

  /** SLRU hit ratio per cache over the last interval. */
  public static final MeterDoc SLRU_HIT_RATIO =
      new MeterDoc(
          "faultline.pg.slru.hit.ratio",
          MeterDoc.Type.GAUGE,
          "ratio",
          List.of("slru"),
          "Hits over accesses of one pg_stat_slru cache during the last poll interval (NaN when"
              + " it had no accesses); slru is the PostgreSQL 17 name, e.g. multixact_member.",
          JooqConfigKeys.HEALTH);

  /** Age of the oldest open transaction. */
  public static final MeterDoc OLDEST_TRANSACTION_AGE =
      new MeterDoc(
          "faultline.pg.oldest.transaction.age",
          MeterDoc.Type.GAUGE,
          "seconds",
          List.of(),
          "Age of the oldest open transaction of any other session, in seconds (0 when none).",
          JooqConfigKeys.HEALTH);

  /** mxid_age(datminmxid) of the database. */
  public static final MeterDoc MULTIXACT_AGE =
      new MeterDoc(
          "faultline.pg.multixact.age",
          MeterDoc.Type.GAUGE,
          "multixacts",
          List.of(),
          "mxid_age(datminmxid) of the current database: how many MultiXact ids old its oldest"
              + " unfrozen one is.",
          JooqConfigKeys.HEALTH);

  /** Backends whose subtransaction cache overflowed. */
  public static final MeterDoc SUBXACT_OVERFLOWED =
      new MeterDoc(
          "faultline.pg.subtransactions.overflowed.backends",
          MeterDoc.Type.GAUGE,
          "backends",
          List.of(),
          "Backends whose subtransaction cache overflowed (more than 64 subtransactions),"
              + " from pg_stat_get_backend_subxact; PostgreSQL 16+, NaN before.",
          JooqConfigKeys.HEALTH);

  /** Polls by outcome. */
  public static final MeterDoc POLLS =
      new MeterDoc(
          "faultline.pg.health.polls",
          MeterDoc.Type.COUNTER,
          "polls",
          List.of("outcome"),
          "Polls of PostgreSQL's statistics by outcome: ok, failed.",
          JooqConfigKeys.HEALTH);

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public HealthMeters() {}

  @Override
  public List<MeterDoc> meters() {
    return List.of(
        SLRU_HIT_RATIO, OLDEST_TRANSACTION_AGE, MULTIXACT_AGE, SUBXACT_OVERFLOWED, POLLS);
  }
}
