package io.faultline.agent.transactional;

import io.faultline.agent.AgentRuntime;
import io.faultline.core.finding.Finding;
import io.faultline.jooq.JooqConfigKeys;
import java.lang.annotation.Annotation;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The transactional methods active on each thread. A method entered while another is active is
 * nested: the first time for each (outer, inner) pair it raises {@code TX_NESTED_TRANSACTIONAL}
 * with both methods, both call sites and what the inner propagation makes of it. Pairs are bounded
 * by {@code jooq.call-sites.max}.
 */
public final class TransactionalNesting {

  private static final ThreadLocal<ArrayDeque<Active>> ACTIVE =
      ThreadLocal.withInitial(ArrayDeque::new);
  private static final Set<String> PAIRS = ConcurrentHashMap.newKeySet();
  private static final StackWalker WALKER = StackWalker.getInstance();

  private static final ClassValue<Map<String, MethodInfo>> INFO =
      new ClassValue<>() {
        @Override
        protected Map<String, MethodInfo> computeValue(Class<?> type) {
          return new ConcurrentHashMap<>();
        }
      };

  private TransactionalNesting() {}

  private record MethodInfo(String name, String propagation) {}

  private record Active(MethodInfo method, String callSite) {}

  /** A transactional method is entered; returns the token {@link #exit} takes. */
  public static Object enter(Class<?> type, String methodAndDescriptor) {
    MethodInfo info = INFO.get(type).computeIfAbsent(methodAndDescriptor, m -> describe(type, m));
    Active active = new Active(info, callerOf(type.getName()));
    ArrayDeque<Active> stack = ACTIVE.get();
    Active outer = stack.peek();
    if (outer != null) {
      nested(outer, active, stack.size() + 1);
    }
    stack.push(active);
    return active;
  }

  /** The method of {@code token} returned or threw. */
  public static void exit(Object token) {
    ArrayDeque<Active> stack = ACTIVE.get();
    // Pop down to it: an entry left by a failed advice must not stay on the thread forever.
    while (!stack.isEmpty()) {
      if (stack.pop() == token) {
        break;
      }
    }
  }

  private static void nested(Active outer, Active inner, int depth) {
    AgentRuntime runtime = AgentRuntime.current().orElse(null);
    if (runtime == null) {
      return;
    }
    String pair = outer.method().name() + " -> " + inner.method().name();
    if (PAIRS.contains(pair)
        || PAIRS.size() >= runtime.config().get(JooqConfigKeys.MAX_CALL_SITES)
        || !PAIRS.add(pair)) {
      return;
    }
    String effect = TransactionalAnnotations.effect(inner.method().propagation());
    runtime
        .findings()
        .raise(
            Finding.of(TransactionalKeys.NESTED_TRANSACTIONAL, pair)
                .message(
                    inner.method().name()
                        + " (called at "
                        + inner.callSite()
                        + ") runs inside "
                        + outer.method().name()
                        + " (called at "
                        + outer.callSite()
                        + "); propagation "
                        + inner.method().propagation()
                        + ": "
                        + effect)
                .evidence("outerMethod", outer.method().name())
                .evidence("outerCallSite", outer.callSite())
                .evidence("innerMethod", inner.method().name())
                .evidence("innerCallSite", inner.callSite())
                .evidence("propagation", inner.method().propagation())
                .evidence("effect", effect)
                .evidence("depth", depth)
                .build());
  }

  private static MethodInfo describe(Class<?> type, String methodAndDescriptor) {
    int paren = methodAndDescriptor.indexOf('(');
    String name = methodAndDescriptor.substring(0, paren);
    String descriptor = methodAndDescriptor.substring(paren);
    Annotation annotation = null;
    for (Method m : type.getDeclaredMethods()) {
      if (m.getName().equals(name)
          && MethodType.methodType(m.getReturnType(), m.getParameterTypes())
              .toMethodDescriptorString()
              .equals(descriptor)) {
        annotation = TransactionalAnnotations.of(m);
        break;
      }
    }
    return new MethodInfo(
        type.getName() + "." + name, TransactionalAnnotations.propagation(annotation));
  }

  /** The first frame below the woven method that is not a proxy, Spring or the JDK. */
  private static String callerOf(String wovenType) {
    return WALKER.walk(
        frames ->
            frames
                .dropWhile(f -> !f.getClassName().equals(wovenType))
                .skip(1)
                .filter(f -> !isFramework(f.getClassName()))
                .findFirst()
                .map(
                    f ->
                        f.getClassName()
                            + "."
                            + f.getMethodName()
                            + "("
                            + f.getFileName()
                            + ":"
                            + f.getLineNumber()
                            + ")")
                .orElse("unknown"));
  }

  private static boolean isFramework(String className) {
    return className.startsWith("org.springframework.")
        || className.startsWith("java.")
        || className.startsWith("jdk.")
        || className.startsWith("sun.")
        || className.startsWith("io.faultline.")
        || className.contains("$$");
  }
}
