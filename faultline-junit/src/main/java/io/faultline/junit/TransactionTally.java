package io.faultline.junit;

/** The transactions begun at one call site during a test: how many, and the worst of each count. */
final class TransactionTally {

  private final String callSite;
  private long count;
  private int maxSavepoints;
  private int maxDepth;
  private long maxStatements;

  TransactionTally(String callSite) {
    this.callSite = callSite;
  }

  synchronized void add(int savepoints, int depth, long statements) {
    count++;
    maxSavepoints = Math.max(maxSavepoints, savepoints);
    maxDepth = Math.max(maxDepth, depth);
    maxStatements = Math.max(maxStatements, statements);
  }

  String callSite() {
    return callSite;
  }

  synchronized long count() {
    return count;
  }

  synchronized int maxSavepoints() {
    return maxSavepoints;
  }

  synchronized int maxDepth() {
    return maxDepth;
  }

  synchronized long maxStatements() {
    return maxStatements;
  }
}
