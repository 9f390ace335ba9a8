package io.faultline.junit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What was observed while one test (or one class's {@code @BeforeAll}/{@code @AfterAll}) ran: the
 * findings, one entry per id and subject with how often, and per transaction call site the worst
 * transaction against each budget. Written by whichever thread observed, read when the test ends.
 */
final class TestRecord {

  private final String name;
  private final AtomicLong sequence = new AtomicLong();
  private final AtomicLong transactions = new AtomicLong();
  private final Map<String, ObservedFinding> findings = new ConcurrentHashMap<>();
  private final Map<String, TransactionTally> sites = new ConcurrentHashMap<>();

  TestRecord(String name) {
    this.name = name;
  }

  /** The test's name as the report shows it. */
  String name() {
    return name;
  }

  void finding(Map<String, Object> values, Attribution how, String thread) {
    String key = values.get("id") + "\u0000" + values.get("subject");
    findings
        .computeIfAbsent(
            key, k -> new ObservedFinding(values, how, thread, sequence.incrementAndGet()))
        .reportedAgain();
  }

  void transaction(Map<String, Object> values) {
    transactions.incrementAndGet();
    String site = String.valueOf(values.get("callSite"));
    sites
        .computeIfAbsent(site, TransactionTally::new)
        .add(
            ((Number) values.get("savepoints")).intValue(),
            ((Number) values.get("maxDepth")).intValue(),
            ((Number) values.get("statements")).longValue());
  }

  /** The findings, in the order first reported. */
  List<ObservedFinding> findings() {
    List<ObservedFinding> list = new ArrayList<>(findings.values());
    list.sort(Comparator.comparingLong(ObservedFinding::sequence));
    return list;
  }

  /** Per call site, the worst transaction begun there against each budget. */
  List<TransactionTally> transactionSites() {
    List<TransactionTally> list = new ArrayList<>(sites.values());
    list.sort(Comparator.comparing(TransactionTally::callSite));
    return list;
  }

  /** Guarded transactions that ended while the test ran. */
  long transactions() {
    return transactions.get();
  }
}
