package example.startup;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Shapes (e) and (f): kafka-clients and jOOQ are not on the class path but in a plugin class loader
 * (child-first for them, as Kafka Connect's and application servers' are) that loads them from jar
 * URLs, {@code -Dshape.jars=<path>:<path>...}; the loader is parallel-capable or not (then every
 * load holds the loader's own lock). Two threads run the Kafka and the jOOQ half of {@link
 * ShapeWork} through it at the same moment.
 *
 * <p>Arguments: {@code parallel} or {@code serial}, then the shapes' arguments.
 */
public final class PluginLoaderApp {

  private PluginLoaderApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    List<URL> urls = new ArrayList<>();
    for (String path : System.getProperty("shape.jars").split(File.pathSeparator)) {
      urls.add(new File(path).toURI().toURL());
    }
    // The work's own class too, so its copy links against the plugin loader's libraries.
    urls.add(ShapeWork.class.getProtectionDomain().getCodeSource().getLocation());
    URL[] u = urls.toArray(URL[]::new);
    ClassLoader parent = PluginLoaderApp.class.getClassLoader();
    ClassLoader loader =
        args[0].equals("parallel") ? new ParallelLoader(u, parent) : new SerialLoader(u, parent);
    System.out.println(
        "loader "
            + loader.getClass().getSimpleName()
            + " parallel="
            + loader.isRegisteredAsParallelCapable());
    String[] shapeArgs = Arrays.copyOfRange(args, 1, args.length);
    Class<?> work = Class.forName(ShapeWork.class.getName(), true, loader);
    if (work.getClassLoader() != loader) {
      throw new IllegalStateException("ShapeWork came from " + work.getClassLoader());
    }
    Method produce =
        work.getMethod(
            "produce",
            String.class,
            String.class,
            Class.forName("org.apache.kafka.clients.producer.Callback", false, loader));
    Method nested =
        work.getMethod("nestedTransaction", String.class, String.class, String.class, String.class);
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    Thread kafka =
        start(loader, failures, () -> produce.invoke(null, shapeArgs[0], shapeArgs[1], null));
    Thread jooq =
        start(
            loader,
            failures,
            () -> nested.invoke(null, shapeArgs[2], shapeArgs[3], shapeArgs[4], shapeArgs[5]));
    kafka.join();
    jooq.join();
    if (!failures.isEmpty()) {
      failures.get(0).printStackTrace();
      throw new IllegalStateException("the work failed: " + failures);
    }
    System.out.println("done plugin-loader-" + args[0]);
    System.out.flush();
    // As ShapeWork.repeatOnRequest, through the plugin loader (this class is the system loader's,
    // where kafka-clients is not).
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    int round = 0;
    for (String line = in.readLine(); line != null && !line.equals("stop"); line = in.readLine()) {
      round++;
      Thread again =
          start(
              loader,
              failures,
              () -> {
                produce.invoke(null, shapeArgs[0], shapeArgs[1], null);
                nested.invoke(null, shapeArgs[2], shapeArgs[3], shapeArgs[4], shapeArgs[5]);
              });
      again.join();
      if (!failures.isEmpty()) {
        failures.get(0).printStackTrace();
        throw new IllegalStateException("the work failed: " + failures);
      }
      System.out.println("again done " + round);
      System.out.flush();
    }
    System.out.println("bye");
  }

  private interface Work {
    void run() throws Exception;
  }

  private static Thread start(ClassLoader loader, List<Throwable> failures, Work work) {
    Thread t =
        new Thread(
            () -> {
              try {
                work.run();
              } catch (Throwable e) {
                failures.add(e);
              }
            });
    t.setContextClassLoader(loader);
    t.start();
    return t;
  }

  /** Whether a plugin loader takes {@code name} from its own URLs before asking its parent. */
  static boolean childFirst(String name) {
    return name.startsWith("org.apache.kafka.")
        || name.startsWith("org.jooq.")
        || name.startsWith("com.zaxxer.hikari.")
        || name.startsWith("org.postgresql.")
        || name.startsWith("org.slf4j.")
        || name.startsWith("org.reactivestreams.")
        || name.startsWith("io.r2dbc.")
        || name.equals(ShapeWork.class.getName());
  }

  /**
   * Child-first for the libraries, parent-first for the rest. Registered as parallel-capable only
   * so that a subclass may be; whether one is decides the lock {@code getClassLoadingLock} gives.
   */
  abstract static class ChildFirstLoader extends URLClassLoader {
    static {
      registerAsParallelCapable();
    }

    ChildFirstLoader(URL[] urls, ClassLoader parent) {
      super(urls, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      synchronized (getClassLoadingLock(name)) {
        if (childFirst(name)) {
          Class<?> c = findLoadedClass(name);
          if (c != null) {
            return c;
          }
          try {
            return findClass(name);
          } catch (ClassNotFoundException notOurs) {
            // the parent's, then
          }
        }
        return super.loadClass(name, resolve);
      }
    }
  }

  /** A parallel-capable plugin loader: a lock per class name. */
  static final class ParallelLoader extends ChildFirstLoader {
    static {
      registerAsParallelCapable();
    }

    ParallelLoader(URL[] urls, ClassLoader parent) {
      super(urls, parent);
    }
  }

  /** A plugin loader that is not parallel-capable: every load holds the loader's monitor. */
  static final class SerialLoader extends ChildFirstLoader {
    SerialLoader(URL[] urls, ClassLoader parent) {
      super(urls, parent);
    }
  }
}
