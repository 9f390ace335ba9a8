package io.faultline.jooq.pool;

import io.faultline.core.Loggers;
import java.lang.ref.WeakReference;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Reads a HikariCP pool's state by method name, so jooq-guard needs no HikariCP dependency and
 * works whichever class loader HikariCP lives in: {@code getHikariPoolMXBean()} for {@code
 * getTotalConnections/getActiveConnections/getIdleConnections/getThreadsAwaitingConnection}, and
 * {@code getMaximumPoolSize/getMinimumIdle/getPoolName} on the data source (a {@code
 * HikariConfig}).
 *
 * <p>It holds the data source weakly: a pool the application dropped is not kept alive by the
 * monitor. {@link #read()} never throws.
 */
public final class HikariPoolReader {

  private static final System.Logger LOG = Loggers.get(HikariPoolReader.class.getName());
  private static final String HIKARI_DATA_SOURCE = "com.zaxxer.hikari.HikariDataSource";

  private final WeakReference<Object> dataSource;
  private final Method poolBean;
  private final Method maximum;
  private final Method minimumIdle;
  private final Method poolName;
  private final Method isClosed;
  private final Method jdbcUrl;
  private final Method username;
  private final Method password;
  private volatile String name;

  private HikariPoolReader(Object dataSource) throws NoSuchMethodException {
    Class<?> type = dataSource.getClass();
    this.dataSource = new WeakReference<>(dataSource);
    this.poolBean = publicMethod(type, "getHikariPoolMXBean");
    this.maximum = publicMethod(type, "getMaximumPoolSize");
    this.minimumIdle = publicMethod(type, "getMinimumIdle");
    this.poolName = publicMethod(type, "getPoolName");
    this.isClosed = publicMethod(type, "isClosed");
    this.jdbcUrl = publicMethod(type, "getJdbcUrl");
    this.username = publicMethod(type, "getUsername");
    this.password = publicMethod(type, "getPassword");
  }

  /**
   * A reader for {@code dataSource} if it is a HikariCP pool (or a wrapper that unwraps to one);
   * otherwise empty, with one INFO line saying why.
   */
  public static Optional<HikariPoolReader> of(DataSource dataSource) {
    Object target = unwrap(dataSource);
    if (target == null) {
      LOG.log(
          System.Logger.Level.INFO,
          "faultline: pool feedback is off for {0}: it is not a HikariCP HikariDataSource",
          dataSource == null ? "null" : dataSource.getClass().getName());
      return Optional.empty();
    }
    return ofHikari(target);
  }

  /**
   * A reader for an object that should be a HikariCP data source, for callers that only hold it as
   * an {@code Object} (the agent); empty, with one INFO line, when its methods are not HikariCP's.
   */
  public static Optional<HikariPoolReader> ofHikari(Object hikariDataSource) {
    try {
      return Optional.of(new HikariPoolReader(hikariDataSource));
    } catch (NoSuchMethodException | RuntimeException e) {
      LOG.log(
          System.Logger.Level.INFO,
          "faultline: pool feedback is off for {0}: it lacks HikariCP''s method {1}",
          hikariDataSource == null ? "null" : hikariDataSource.getClass().getName(),
          e.getMessage());
      return Optional.empty();
    }
  }

  private static Object unwrap(DataSource dataSource) {
    if (dataSource == null) {
      return null;
    }
    if (isHikari(dataSource.getClass())) {
      return dataSource;
    }
    try {
      ClassLoader loader = dataSource.getClass().getClassLoader();
      Class<?> hikari = Class.forName(HIKARI_DATA_SOURCE, false, loader);
      if (dataSource.isWrapperFor(hikari)) {
        return dataSource.unwrap(hikari);
      }
    } catch (ClassNotFoundException | LinkageError | java.sql.SQLException | RuntimeException e) {
      // not a wrapper of HikariCP, or HikariCP is not visible from its loader
    }
    return null;
  }

  private static boolean isHikari(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      if (c.getName().equals(HIKARI_DATA_SOURCE)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The named no-argument method as declared by a public class or interface, so calling it needs no
   * {@code setAccessible} (HikariCP's pool class is public, but a subclass may not be).
   */
  static Method publicMethod(Class<?> type, String name) throws NoSuchMethodException {
    Method found = type.getMethod(name);
    if (Modifier.isPublic(found.getDeclaringClass().getModifiers())) {
      return found;
    }
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      Method m = publicOn(c, name);
      if (m != null) {
        return m;
      }
    }
    throw new NoSuchMethodException(name + " on a public type of " + type.getName());
  }

  private static Method publicOn(Class<?> c, String name) {
    if (Modifier.isPublic(c.getModifiers())) {
      try {
        return c.getMethod(name);
      } catch (NoSuchMethodException e) {
        return null;
      }
    }
    for (Class<?> i : c.getInterfaces()) {
      Method m = publicOn(i, name);
      if (m != null) {
        return m;
      }
    }
    return null;
  }

  /**
   * The pool's state now; empty when the data source is gone or closed, its pool is not started
   * yet, or HikariCP's methods failed (logged once at DEBUG per failure).
   */
  public Optional<PoolReading> read() {
    Object ds = dataSource.get();
    if (ds == null) {
      return Optional.empty();
    }
    try {
      if (Boolean.TRUE.equals(isClosed.invoke(ds))) {
        return Optional.empty();
      }
      Object bean = poolBean.invoke(ds);
      if (bean == null) {
        return Optional.empty(); // a lazily started pool before its first getConnection()
      }
      Class<?> beanType = bean.getClass();
      int total = intOf(publicMethod(beanType, "getTotalConnections").invoke(bean));
      int active = intOf(publicMethod(beanType, "getActiveConnections").invoke(bean));
      int idle = intOf(publicMethod(beanType, "getIdleConnections").invoke(bean));
      int awaiting = intOf(publicMethod(beanType, "getThreadsAwaitingConnection").invoke(bean));
      return Optional.of(
          new PoolReading(
              poolName(),
              total,
              active,
              idle,
              awaiting,
              intOf(minimumIdle.invoke(ds)),
              intOf(maximum.invoke(ds))));
    } catch (IllegalAccessException
        | InvocationTargetException
        | NoSuchMethodException
        | RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "faultline: cannot read the HikariCP pool", e);
      return Optional.empty();
    }
  }

  /** The pool's name, or {@code "HikariPool"} when it has none yet. */
  public String poolName() {
    String n = name;
    if (n == null) {
      n = stringOf(poolName, "");
      if (!n.isEmpty()) {
        name = n;
      }
    }
    return n.isEmpty() ? "HikariPool" : n;
  }

  /** The pool's {@code jdbcUrl}, or null when it is configured by data source class instead. */
  public String jdbcUrl() {
    String url = stringOf(jdbcUrl, null);
    return url == null || url.isEmpty() ? null : url;
  }

  /** The pool's {@code username}, or null. */
  public String username() {
    return stringOf(username, null);
  }

  /** The pool's {@code password}, or null. */
  public String password() {
    return stringOf(password, null);
  }

  /** The class loader of the pool's data source (where its JDBC driver is visible), or null. */
  public ClassLoader classLoader() {
    Object ds = dataSource.get();
    return ds == null ? null : ds.getClass().getClassLoader();
  }

  /** Whether the data source is gone (collected) or closed. */
  public boolean gone() {
    Object ds = dataSource.get();
    if (ds == null) {
      return true;
    }
    try {
      return Boolean.TRUE.equals(isClosed.invoke(ds));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return false;
    }
  }

  private String stringOf(Method method, String otherwise) {
    Object ds = dataSource.get();
    if (ds == null) {
      return otherwise;
    }
    try {
      Object value = method.invoke(ds);
      return value == null ? otherwise : value.toString();
    } catch (ReflectiveOperationException | RuntimeException e) {
      return otherwise;
    }
  }

  private static int intOf(Object value) {
    return value instanceof Number n ? n.intValue() : 0;
  }
}
