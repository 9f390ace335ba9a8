package io.faultline.jooq.internal;

import java.lang.reflect.Field;
import org.jooq.TransactionProvider;
import org.jooq.impl.DefaultTransactionProvider;
import org.jooq.impl.ThreadLocalTransactionProvider;

/**
 * Whether a delegate provider turns a nested transaction into a savepoint. Known from the type for
 * jOOQ's providers; Spring Boot's provider always nests with a savepoint ({@code
 * PROPAGATION_NESTED}); anything unknown is assumed to, which errs on the side of counting.
 */
public final class SavepointBehaviour {

  private SavepointBehaviour() {}

  /** Whether {@code delegate} makes nested transactions savepoints. */
  public static boolean savepoints(TransactionProvider delegate) {
    if (delegate instanceof DefaultTransactionProvider d) {
      return d.nested();
    }
    if (delegate instanceof ThreadLocalTransactionProvider) {
      Boolean nested = threadLocalNested(delegate);
      return nested == null || nested;
    }
    return true;
  }

  /**
   * The nested flag of a ThreadLocalTransactionProvider's inner provider, or null if unreadable.
   */
  private static Boolean threadLocalNested(TransactionProvider delegate) {
    try {
      Field f =
          ThreadLocalTransactionProvider.class.getDeclaredField("delegateTransactionProvider");
      f.setAccessible(true);
      Object inner = f.get(delegate);
      return inner instanceof DefaultTransactionProvider d ? d.nested() : null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
