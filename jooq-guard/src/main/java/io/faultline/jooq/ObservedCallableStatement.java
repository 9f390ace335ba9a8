package io.faultline.jooq;

import io.faultline.jooq.internal.Ledger;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

/**
 * A callable statement of an {@link ObservedConnection} (a stored procedure's {@code CALL}): each
 * run reports its SQL to the guard, every other call goes to the driver's statement. A proxy, not a
 * class like {@link ObservedPreparedStatement}: procedures are rare, and the reflective call they
 * pay per method is cheaper to carry than a second copy of that class.
 */
final class ObservedCallableStatement implements InvocationHandler {

  private static final Set<String> RUNS =
      Set.of(
          "executeQuery",
          "executeUpdate",
          "executeLargeUpdate",
          "execute",
          "executeBatch",
          "executeLargeBatch");

  private final CallableStatement delegate;
  private final String sql;
  private final Connection connection;
  private final Ledger ledger;
  private final StatementHooks hooks;

  private ObservedCallableStatement(
      CallableStatement delegate,
      String sql,
      Connection connection,
      Ledger ledger,
      StatementHooks hooks) {
    this.delegate = delegate;
    this.sql = sql;
    this.connection = connection;
    this.ledger = ledger;
    this.hooks = hooks;
  }

  /** {@code delegate}, prepared for {@code sql} on {@code connection}, observed. */
  static CallableStatement of(
      CallableStatement delegate,
      String sql,
      Connection connection,
      Ledger ledger,
      StatementHooks hooks) {
    return (CallableStatement)
        Proxy.newProxyInstance(
            ObservedCallableStatement.class.getClassLoader(),
            new Class<?>[] {CallableStatement.class},
            new ObservedCallableStatement(delegate, sql, connection, ledger, hooks));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    String name = method.getName();
    boolean noArgs = args == null || args.length == 0;
    if (method.getDeclaringClass() == Object.class) {
      return switch (name) {
        case "equals" -> proxy == args[0];
        case "hashCode" -> System.identityHashCode(proxy);
        default -> "observed " + delegate;
      };
    }
    if (noArgs && name.equals("getConnection")) {
      return connection;
    }
    if (noArgs && RUNS.contains(name)) {
      return hooks.run(ledger, sql, delegate, () -> call(method, null));
    }
    return call(method, args);
  }

  private Object call(Method method, Object[] args) throws SQLException {
    try {
      return method.invoke(delegate, args);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof SQLException sql) {
        throw sql;
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new SQLException(cause);
    } catch (IllegalAccessException e) {
      throw new SQLException(e);
    }
  }
}
