package io.faultline.junit;

import io.faultline.core.observe.Observations;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One per test run (kept in the root context's store, closed when the run ends): subscribes to what
 * jooq-guard as a library and, when attached, the agent observe, and charges each observation to a
 * test.
 *
 * <p>Attribution: an observation is handed over on the thread that made it. A thread running a test
 * (from its {@code @BeforeEach} to its {@code @AfterEach}) or a class's {@code @BeforeAll} and
 * {@code @AfterAll} is registered for it, so what it reports is that test's, however many tests run
 * in parallel on other threads. An observation from any other thread (a pool, a server's request
 * thread, a Kafka client's network thread) is charged to the one test running, when exactly one
 * runs, and otherwise kept as unattributed and listed in the report: with tests in parallel nothing
 * sound says whose it is.
 */
final class ObservationHub implements AutoCloseable {

  /** Unattributed findings kept for the report; more are counted only. */
  private static final int MAX_UNATTRIBUTED = 100;

  private final List<Runnable> subscriptions = new ArrayList<>();
  private final List<String> sources = new ArrayList<>();
  // A deque per registered thread, touched only by that thread; the map only finds it.
  private final Map<Thread, Deque<TestRecord>> onThread = new ConcurrentHashMap<>();
  private final Set<TestRecord> runningTests = ConcurrentHashMap.newKeySet();
  private final ConcurrentLinkedQueue<String> unattributed = new ConcurrentLinkedQueue<>();
  private final AtomicInteger unattributedCount = new AtomicInteger();

  private ObservationHub() {}

  /** A hub subscribed to the library's observations and, if attached, the agent's. */
  static ObservationHub start() {
    ObservationHub hub = new ObservationHub();
    hub.subscriptions.add(Observations.subscribe(hub::observe));
    hub.sources.add("jooq-guard as a library");
    AgentTap.subscribe(hub::observe)
        .ifPresent(
            unsubscribe -> {
              hub.subscriptions.add(unsubscribe);
              hub.sources.add("the agent");
            });
    return hub;
  }

  /** What is observed: {@code jooq-guard as a library}, and {@code the agent} when attached. */
  List<String> sources() {
    return List.copyOf(sources);
  }

  /** The calling thread runs {@code record}'s test (or class callbacks) from now on. */
  void enter(TestRecord record, boolean test) {
    onThread.computeIfAbsent(Thread.currentThread(), t -> new ArrayDeque<>()).push(record);
    if (test) {
      runningTests.add(record);
    }
  }

  /** The calling thread is done with {@code record}. */
  void exit(TestRecord record, boolean test) {
    runningTests.remove(record);
    Thread thread = Thread.currentThread();
    Deque<TestRecord> records = onThread.get(thread);
    if (records != null) {
      records.remove(record);
      if (records.isEmpty()) {
        onThread.remove(thread);
      }
    }
  }

  /** Takes the unattributed findings so far (one line each) and how many there were in all. */
  List<String> drainUnattributed(int[] total) {
    List<String> lines = new ArrayList<>();
    for (String line; (line = unattributed.poll()) != null; ) {
      lines.add(line);
    }
    total[0] = unattributedCount.getAndSet(0);
    return lines;
  }

  private void observe(String kind, Map<String, Object> values) {
    Thread thread = Thread.currentThread();
    Deque<TestRecord> records = onThread.get(thread);
    TestRecord record = records == null ? null : records.peek();
    Attribution how = Attribution.TEST_THREAD;
    if (record == null) {
      Object[] running = runningTests.toArray();
      if (running.length == 1) {
        record = (TestRecord) running[0];
        how = Attribution.ONLY_TEST_RUNNING;
      }
    }
    if (Observations.FINDING.equals(kind)) {
      if (record != null) {
        record.finding(values, how, thread.getName());
      } else if (unattributedCount.incrementAndGet() <= MAX_UNATTRIBUTED) {
        unattributed.add(
            values.get("id")
                + " about "
                + values.get("subject")
                + " (thread "
                + thread.getName()
                + ")");
      }
    } else if (Observations.TRANSACTION.equals(kind) && record != null) {
      record.transaction(values);
    }
  }

  @Override
  public void close() {
    subscriptions.forEach(Runnable::run);
    subscriptions.clear();
  }
}
