package example.startup;

import org.apache.kafka.clients.producer.Callback;
import org.jooq.TransactionalRunnable;
import org.jooq.impl.DefaultTransactionProvider;

/**
 * Shape (c): the targeted types are first touched from the static initializer of another class
 * ({@link Targets}), which runs under that class's initialization lock. Arguments: see {@link
 * ShapeWork}.
 */
public final class StaticInitializerApp {

  private StaticInitializerApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    System.out.println("targets: " + Targets.PROVIDER.getSimpleName());
    ShapeWork.produce(args[0], args[1], Targets.CALLBACK);
    String table = args[5];
    try (var pool = ShapeWork.pool(args[2], args[3], args[4])) {
      ShapeWork.prepare(pool, table).transaction(Targets.nested(table));
    }
    System.out.println("done static-initializer");
    System.out.flush();
    ShapeWork.repeatOnRequest(args);
  }

  /** Loads kafka-clients' and jOOQ's types in its {@code <clinit>}. */
  static final class Targets {
    static final Callback CALLBACK = (m, e) -> {};
    static final Class<?> PROVIDER = DefaultTransactionProvider.class;

    private Targets() {}

    static TransactionalRunnable nested(String table) {
      return outer -> {
        outer.dsl().execute("UPDATE " + table + " SET n = n + 1 WHERE id = 1");
        outer
            .dsl()
            .transaction(
                inner -> inner.dsl().execute("UPDATE " + table + " SET n = n + 1 WHERE id = 1"));
      };
    }
  }
}
