package io.faultline.jooq;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Where application code began a transaction: the first stack frame outside jOOQ, Spring,
 * Faultline's own libraries and the JDK.
 *
 * @param className the class of the frame
 * @param methodName the method of the frame
 * @param fileName the source file, or empty when unknown
 * @param line the line number, or a negative number when unknown
 */
public record CallSite(String className, String methodName, String fileName, int line) {

  /** Stands for a call site that could not be found (all frames were framework frames). */
  public static final CallSite UNKNOWN = new CallSite("unknown", "unknown", "", -1);

  /** Stands for every call site beyond the tracked bound, counted together. */
  public static final CallSite OTHER = new CallSite("other", "other", "", -1);

  private static final List<String> FRAMEWORK_PREFIXES =
      List.of(
          "org.jooq.",
          "org.springframework.",
          "io.faultline.jooq.",
          "io.faultline.agent.",
          "io.faultline.spring.",
          "io.faultline.core.",
          "io.faultline.shaded.",
          "java.",
          "javax.",
          "jakarta.",
          "jdk.",
          "sun.",
          "com.sun.",
          "net.bytebuddy.",
          "kotlin.coroutines.",
          "com.zaxxer.hikari.");

  /** A bound on the walk, against pathological recursion through framework code. */
  private static final int MAX_FRAMES = 1024;

  /** Call sites resolved per class, at most this many (beyond it they are resolved every time). */
  private static final int MAX_CACHED_PER_CLASS = 256;

  /** Whether the walker may retain classes (a security manager may deny it). */
  private static final boolean CLASSES = mayRetainClasses();

  private static final StackWalker WALKER = walker(0);

  /**
   * Walkers by the first batch they fetch ({@code StackWalker}'s depth estimate, the index). The
   * JVM resolves the method of every frame it hands over, which is most of a walk's cost; a default
   * walker fetches 8 frames, then 16, so a call site 16 frames deep (jOOQ's own frames plus the
   * guard's) costs about 23 resolved frames where 17 do. Filled as depths are seen.
   */
  private static final StackWalker[] SIZED_WALKERS = new StackWalker[64];

  /** How deep the last call site found by {@link #current()} was: the next walk's estimate. */
  private static volatile int lastDepth;

  /**
   * Per class: whether it is a framework class (decided once per class, not per frame) and its call
   * sites resolved so far. Resolving a frame's file and line (its {@code StackTraceElement}) costs
   * more than the walk, and the same few call sites begin transactions over and over. A {@link
   * ClassValue} keeps this with the class, so it goes when the class is unloaded.
   */
  private static final ClassValue<FrameClass> CLASS_INFO =
      new ClassValue<>() {
        @Override
        protected FrameClass computeValue(Class<?> type) {
          return new FrameClass(isFramework(type.getName()));
        }
      };

  /** What is known of one class whose frames were walked. */
  private static final class FrameClass {
    final boolean framework;
    final ConcurrentHashMap<FrameKey, CallSite> sites = new ConcurrentHashMap<>();

    FrameClass(boolean framework) {
      this.framework = framework;
    }
  }

  /**
   * A frame by method (name and descriptor, so overloads differ) and bytecode index: the same index
   * in the same method is the same line.
   */
  private record FrameKey(String methodName, String descriptor, int bytecodeIndex) {

    // Written out: a record's generated equals and hashCode run through method handles, which
    // the interpreter runs slowly, and walks at the default rate stay interpreted.
    @Override
    public boolean equals(Object o) {
      return o instanceof FrameKey k
          && bytecodeIndex == k.bytecodeIndex
          && methodName.equals(k.methodName)
          && descriptor.equals(k.descriptor);
    }

    @Override
    public int hashCode() {
      return (methodName.hashCode() * 31 + descriptor.hashCode()) * 31 + bytecodeIndex;
    }
  }

  private static boolean mayRetainClasses() {
    try {
      StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
      return true;
    } catch (SecurityException e) {
      return false;
    }
  }

  /** The call site of the current thread's caller, found by walking its stack. */
  public static CallSite current() {
    FirstApplicationFrame finder = new FirstApplicationFrame();
    StackWalker.StackFrame frame = sizedWalker(lastDepth).walk(finder);
    if (finder.depth != lastDepth) {
      lastDepth = finder.depth;
    }
    return frame == null || finder.depth > MAX_FRAMES ? UNKNOWN : cached(frame);
  }

  /** A walker whose first batch holds {@code depth} frames and a margin, or the default one. */
  private static StackWalker sizedWalker(int depth) {
    int estimate = depth + 2;
    if (depth <= 0 || estimate >= SIZED_WALKERS.length) {
      return WALKER;
    }
    StackWalker w = SIZED_WALKERS[estimate];
    if (w == null) {
      w = walker(estimate);
      SIZED_WALKERS[estimate] = w; // a benign race: walkers are interchangeable
    }
    return w;
  }

  private static StackWalker walker(int estimateDepth) {
    // Reflection frames shown: they are JDK frames, skipped here like any other, and the walker's
    // own test for them (a class name comparison per frame) was a sixth of a walk.
    Set<StackWalker.Option> options =
        CLASSES
            ? Set.of(
                StackWalker.Option.RETAIN_CLASS_REFERENCE, StackWalker.Option.SHOW_REFLECT_FRAMES)
            : Set.of(StackWalker.Option.SHOW_REFLECT_FRAMES);
    return estimateDepth > 0
        ? StackWalker.getInstance(options, estimateDepth)
        : StackWalker.getInstance(options);
  }

  /**
   * The call site of the outermost jOOQ or Spring transaction running on this thread, found from
   * its stack: the application frame that called into the bottom-most run of framework frames
   * holding an {@code org.jooq} or {@code org.springframework.transaction} frame (jOOQ's {@code
   * transaction}, Spring's transaction interceptor or {@code TransactionTemplate}). Called while
   * that transaction's frames are still on the stack (at a nested begin, a commit, a statement), it
   * names the same frame {@link #current()} would have at its begin, without walking the stack at
   * every top-level begin. UNKNOWN when no jOOQ frame is on the stack.
   */
  public static CallSite outermostTransaction() {
    return WALKER.walk(CallSite::applicationFrameBelowLastJooqRun);
  }

  private static CallSite applicationFrameBelowLastJooqRun(Stream<StackWalker.StackFrame> frames) {
    StackWalker.StackFrame[] found = new StackWalker.StackFrame[1];
    boolean[] inJooqRun = new boolean[1];
    frames
        .limit(MAX_FRAMES)
        .forEach(
            f -> {
              if (isApplicationFrame(f)) {
                if (inJooqRun[0]) {
                  found[0] = f;
                  inJooqRun[0] = false;
                }
              } else if (f.getClassName().startsWith("org.jooq.")
                  || f.getClassName().startsWith("org.springframework.transaction.")) {
                inJooqRun[0] = true;
              }
            });
    return found[0] == null ? UNKNOWN : cached(found[0]);
  }

  /**
   * Finds the first application frame (null when there is none) and counts how deep it was; past
   * {@link #MAX_FRAMES} it stops with the depth beyond the bound.
   */
  private static final class FirstApplicationFrame
      implements Function<Stream<StackWalker.StackFrame>, StackWalker.StackFrame> {
    int depth;

    @Override
    public StackWalker.StackFrame apply(Stream<StackWalker.StackFrame> frames) {
      // A short pipeline, not an iterator: the iterator's adapter buffers and costs a third of a
      // hot walk. At the default budget a walk's code stays interpreted, where every stage of the
      // pipeline costs, so the frame is resolved after the walk, not in it.
      return frames.filter(this::counted).findFirst().orElse(null);
    }

    private boolean counted(StackWalker.StackFrame f) {
      return ++depth > MAX_FRAMES || isApplicationFrame(f);
    }
  }

  private static boolean isApplicationFrame(StackWalker.StackFrame f) {
    return CLASSES
        ? !CLASS_INFO.get(f.getDeclaringClass()).framework
        : !isFramework(f.getClassName());
  }

  private static CallSite cached(StackWalker.StackFrame f) {
    if (!CLASSES) {
      return resolve(f);
    }
    return cached(CLASS_INFO.get(f.getDeclaringClass()), f);
  }

  private static CallSite cached(FrameClass info, StackWalker.StackFrame f) {
    FrameKey key = new FrameKey(f.getMethodName(), f.getDescriptor(), f.getByteCodeIndex());
    CallSite site = info.sites.get(key);
    if (site == null) {
      site = resolve(f);
      if (info.sites.size() < MAX_CACHED_PER_CLASS) {
        info.sites.putIfAbsent(key, site);
      }
    }
    return site;
  }

  private static CallSite resolve(StackWalker.StackFrame f) {
    return new CallSite(
        f.getClassName(),
        f.getMethodName(),
        f.getFileName() == null ? "" : f.getFileName(),
        f.getLineNumber());
  }

  /** The first frame of {@code stack} outside the framework packages. */
  public static CallSite of(StackTraceElement[] stack) {
    for (StackTraceElement e : stack) {
      if (!isFramework(e.getClassName())) {
        return new CallSite(
            e.getClassName(),
            e.getMethodName(),
            e.getFileName() == null ? "" : e.getFileName(),
            e.getLineNumber());
      }
    }
    return UNKNOWN;
  }

  /** Whether frames of {@code className} are skipped when looking for the call site. */
  static boolean isFramework(String className) {
    if (className.contains("$$")) {
      // Generated proxies (Spring's CGLIB subclasses, Hibernate's): the call site is the caller.
      return true;
    }
    for (String prefix : FRAMEWORK_PREFIXES) {
      if (className.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /** {@code com.acme.OrderService.pay(OrderService.java:42)}, like a stack trace line. */
  @Override
  public String toString() {
    String where = fileName.isEmpty() ? "Unknown Source" : fileName + (line >= 0 ? ":" + line : "");
    return className + "." + methodName + "(" + where + ")";
  }
}
