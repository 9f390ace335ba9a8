package io.faultline.jooq;

import java.util.List;
import java.util.Optional;
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

  private static final StackWalker WALKER = StackWalker.getInstance();

  /** The call site of the current thread's caller, found by walking its stack. */
  public static CallSite current() {
    return WALKER.walk(CallSite::firstApplicationFrame);
  }

  private static CallSite firstApplicationFrame(Stream<StackWalker.StackFrame> frames) {
    Optional<StackWalker.StackFrame> frame =
        frames.filter(f -> !isFramework(f.getClassName())).findFirst();
    return frame
        .map(
            f ->
                new CallSite(
                    f.getClassName(),
                    f.getMethodName(),
                    f.getFileName() == null ? "" : f.getFileName(),
                    f.getLineNumber()))
        .orElse(UNKNOWN);
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
