package bench.boot;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.table;

import java.util.List;
import org.jooq.DSLContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /orders/open} through Boot's jOOQ {@link DSLContext}. Renders its query once at start,
 * as the library rows do, so jOOQ's rendering is part of the start-up measured.
 */
@RestController
class OpenOrders {

  private final DSLContext dsl;
  private final String sql;

  OpenOrders(DSLContext dsl) {
    this.dsl = dsl;
    this.sql = dsl.select(field("id")).from(table("orders")).where(openState()).getSQL();
  }

  private static org.jooq.Condition openState() {
    return field("state").eq("open");
  }

  /** The query rendered at start. */
  String sql() {
    return sql;
  }

  @GetMapping("/orders/open")
  List<Long> open() {
    return dsl.select(field("id", Long.class))
        .from(table("orders"))
        .where(openState())
        .fetch(r -> r.value1());
  }
}
