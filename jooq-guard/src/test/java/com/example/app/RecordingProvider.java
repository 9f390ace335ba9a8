package com.example.app;

import java.util.ArrayList;
import java.util.List;
import org.jooq.TransactionContext;
import org.jooq.TransactionProvider;

/** A delegate that records the calls it gets, with the nesting level it believes it is at. */
final class RecordingProvider implements TransactionProvider {

  final List<String> calls = new ArrayList<>();
  private int level;

  @Override
  public void begin(TransactionContext ctx) {
    level++;
    calls.add("begin" + level);
  }

  @Override
  public void commit(TransactionContext ctx) {
    calls.add("commit" + level);
    level--;
  }

  @Override
  public void rollback(TransactionContext ctx) {
    calls.add("rollback" + level);
    level--;
  }
}
