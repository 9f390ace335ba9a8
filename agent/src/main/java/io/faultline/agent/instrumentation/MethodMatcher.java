package io.faultline.agent.instrumentation;

import io.faultline.agent.weave.ClassWeaver.MethodInfo;
import java.util.Objects;
import java.util.function.Predicate;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Which methods of a type an advice goes into, decided from the class file alone (names and
 * descriptors, never a loaded class). Built from the static factories and combined with {@link
 * #and}, {@link #or} and {@link #not}; its {@code toString} is what the agent reports when a
 * required method is missing.
 */
public final class MethodMatcher {

  private final Predicate<MethodInfo> test;
  private final String description;

  private MethodMatcher(Predicate<MethodInfo> test, String description) {
    this.test = test;
    this.description = description;
  }

  /** Whether {@code method} matches. */
  public boolean matches(MethodInfo method) {
    return test.test(method);
  }

  /** Both. */
  public MethodMatcher and(MethodMatcher other) {
    return new MethodMatcher(
        test.and(other.test), "(" + description + " and " + other.description + ")");
  }

  /** Either. */
  public MethodMatcher or(MethodMatcher other) {
    return new MethodMatcher(
        test.or(other.test), "(" + description + " or " + other.description + ")");
  }

  /** The opposite of {@code matcher}. */
  public static MethodMatcher not(MethodMatcher matcher) {
    return new MethodMatcher(matcher.test.negate(), "not " + matcher.description);
  }

  /** Methods called {@code name} (constructors are {@code <init>}, see {@link #isConstructor}). */
  public static MethodMatcher named(String name) {
    Objects.requireNonNull(name, "name");
    return new MethodMatcher(m -> m.name().equals(name), "named " + name);
  }

  /** Methods with {@code count} parameters. */
  public static MethodMatcher takesArguments(int count) {
    return new MethodMatcher(
        m -> Type.getArgumentTypes(m.descriptor()).length == count,
        "takes " + count + " arguments");
  }

  /** Methods whose parameter {@code index} is of the type with binary name {@code typeName}. */
  public static MethodMatcher takesArgument(int index, String typeName) {
    String descriptor = descriptorOf(typeName);
    return new MethodMatcher(
        m -> {
          Type[] args = Type.getArgumentTypes(m.descriptor());
          return index < args.length && args[index].getDescriptor().equals(descriptor);
        },
        "argument " + index + " is " + typeName);
  }

  /** {@link #takesArgument(int, String)} for a JDK type. */
  public static MethodMatcher takesArgument(int index, Class<?> type) {
    return takesArgument(index, type.getName());
  }

  /** Methods returning the type with binary name {@code typeName}. */
  public static MethodMatcher returns(String typeName) {
    String descriptor = descriptorOf(typeName);
    return new MethodMatcher(
        m -> Type.getReturnType(m.descriptor()).getDescriptor().equals(descriptor),
        "returns " + typeName);
  }

  /** Constructors. */
  public static MethodMatcher isConstructor() {
    return new MethodMatcher(m -> m.name().equals("<init>"), "constructor");
  }

  /** Static methods. */
  public static MethodMatcher isStatic() {
    return access(Opcodes.ACC_STATIC, "static");
  }

  /** Public methods. */
  public static MethodMatcher isPublic() {
    return access(Opcodes.ACC_PUBLIC, "public");
  }

  /** Abstract methods (no code to weave). */
  public static MethodMatcher isAbstract() {
    return access(Opcodes.ACC_ABSTRACT, "abstract");
  }

  /** Methods the compiler made (bridges, lambdas' bodies). */
  public static MethodMatcher isSynthetic() {
    return access(Opcodes.ACC_SYNTHETIC, "synthetic");
  }

  /** Methods carrying an annotation whose type {@code annotated} accepts (by binary name). */
  public static MethodMatcher annotatedWith(Predicate<String> annotated, String description) {
    return new MethodMatcher(
        m -> m.annotations().stream().anyMatch(d -> annotated.test(binaryName(d))),
        "annotated with " + description);
  }

  /** Methods of a class carrying an annotation whose type {@code annotated} accepts. */
  public static MethodMatcher declaredByTypeAnnotatedWith(
      Predicate<String> annotated, String description) {
    return new MethodMatcher(
        m -> m.type().annotations().stream().anyMatch(d -> annotated.test(binaryName(d))),
        "declared by a type annotated with " + description);
  }

  private static MethodMatcher access(int flag, String description) {
    return new MethodMatcher(m -> (m.access() & flag) != 0, description);
  }

  /** {@code Lcom/x/Y;} as {@code com.x.Y}. */
  static String binaryName(String descriptor) {
    return Type.getType(descriptor).getClassName();
  }

  private static String descriptorOf(String typeName) {
    switch (typeName) {
      case "boolean":
        return "Z";
      case "byte":
        return "B";
      case "char":
        return "C";
      case "short":
        return "S";
      case "int":
        return "I";
      case "long":
        return "J";
      case "float":
        return "F";
      case "double":
        return "D";
      case "void":
        return "V";
      default:
        return typeName.startsWith("[")
            ? typeName.replace('.', '/')
            : "L" + typeName.replace('.', '/') + ";";
    }
  }

  @Override
  public String toString() {
    return description;
  }
}
