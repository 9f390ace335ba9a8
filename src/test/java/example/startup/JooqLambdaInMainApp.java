package example.startup;

import com.zaxxer.hikari.HikariDataSource;
import org.jooq.DSLContext;

/**
 * Shape (a): {@code main} itself holds the jOOQ lambdas ({@code dsl.transaction(cfg -> ...)}), so
 * linking {@code main} loads jOOQ's types before any line of it runs. Then produces, so the Kafka
 * half of the shapes' work is the same. Arguments: see {@link ShapeWork}.
 */
public final class JooqLambdaInMainApp {

  private JooqLambdaInMainApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    String table = args[5];
    try (HikariDataSource pool = ShapeWork.pool(args[2], args[3], args[4])) {
      DSLContext dsl = ShapeWork.prepare(pool, table);
      dsl.transaction(
          outer -> {
            outer.dsl().execute("UPDATE " + table + " SET n = n + 1 WHERE id = 1");
            outer
                .dsl()
                .transaction(
                    inner ->
                        inner.dsl().execute("UPDATE " + table + " SET n = n + 1 WHERE id = 1"));
          });
    }
    System.out.println("nested transaction committed");
    ShapeWork.produce(args[0], args[1], null);
    System.out.println("done jooq-lambda-in-main");
    System.out.flush();
    ShapeWork.repeatOnRequest(args);
  }
}
