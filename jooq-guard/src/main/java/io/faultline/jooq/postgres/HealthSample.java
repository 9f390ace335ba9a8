package io.faultline.jooq.postgres;

import java.util.Map;

/**
 * What one poll saw.
 *
 * @param hitRatios hit ratio per SLRU (canonical name) over the interval; absent on the first poll
 * @param accesses accesses per SLRU over the interval
 * @param oldestTransactionSeconds age of the oldest open transaction of another session, 0 if none
 * @param oldestPid that transaction's backend pid, or 0
 * @param oldestApplication that backend's application_name, or empty
 * @param multixactAge mxid_age(datminmxid) of the current database, or -1 if unknown
 * @param overflowedBackends backends with an overflowed subtransaction cache, or -1 before PG 16
 */
public record HealthSample(
    Map<String, Double> hitRatios,
    Map<String, Long> accesses,
    double oldestTransactionSeconds,
    int oldestPid,
    String oldestApplication,
    long multixactAge,
    int overflowedBackends) {}
