package io.faultline.agent.weave;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Reads an advice class's {@link Advice} annotations and code from its class file, which is parsed,
 * never loaded. Everything that could not be woven faithfully is rejected here, with the reason,
 * once per advice class, instead of failing in the application's classes later.
 */
public final class AdviceReader {

  private static final String PREFIX = "L" + Advice.class.getName().replace('.', '/') + "$";
  private static final String ON_ENTER = PREFIX + "OnMethodEnter;";
  private static final String ON_EXIT = PREFIX + "OnMethodExit;";
  private static final String NON_DEFAULT = PREFIX.substring(1) + "OnNonDefaultValue";
  private static final String STRING_CONCAT = "java/lang/invoke/StringConcatFactory";

  private AdviceReader() {}

  /**
   * The advice of the class file {@code classFile}.
   *
   * @throws IllegalArgumentException naming the advice class and what is wrong with it
   */
  public static MethodAdvice read(byte[] classFile) {
    ClassNode node = new ClassNode(Opcodes.ASM9);
    new ClassReader(classFile).accept(node, ClassReader.EXPAND_FRAMES);
    if (node.version < ClassWeaver.OLDEST_VERSION) {
      throw new IllegalArgumentException("advice class " + node.name + " is compiled for Java 6");
    }
    Hook enter = null;
    Hook exit = null;
    Skip skip = Skip.NEVER;
    boolean onThrowable = false;
    for (MethodNode m : node.methods) {
      AnnotationNode enterAnnotation = annotation(m, ON_ENTER);
      AnnotationNode exitAnnotation = annotation(m, ON_EXIT);
      if (enterAnnotation == null && exitAnnotation == null) {
        continue;
      }
      if (enterAnnotation != null && exitAnnotation != null) {
        throw invalid(node, m, "is both enter and exit advice");
      }
      requireInlinable(node, m);
      AnnotationNode a = enterAnnotation != null ? enterAnnotation : exitAnnotation;
      Type suppress = (Type) value(a, "suppress");
      if (suppress != null && !suppress.getInternalName().equals("java/lang/Throwable")) {
        throw invalid(node, m, "must suppress Throwable (every advice failure is the agent's)");
      }
      Hook hook = new Hook(node.name, m, bindings(node, m));
      if (enterAnnotation != null) {
        if (enter != null) {
          throw invalid(node, m, "is a second enter advice");
        }
        enter = hook;
        Type skipOn = (Type) value(a, "skipOn");
        if (skipOn != null && skipOn.getSort() != Type.VOID) {
          skip =
              skipOn.getInternalName().equals(NON_DEFAULT)
                  ? Skip.ON_NON_DEFAULT
                  : Skip.onInstanceOf(skipOn.getInternalName());
        }
      } else {
        if (exit != null) {
          throw invalid(node, m, "is a second exit advice");
        }
        exit = hook;
        Type thrown = (Type) value(a, "onThrowable");
        if (thrown != null && thrown.getSort() != Type.VOID) {
          if (!thrown.getInternalName().equals("java/lang/Throwable")) {
            throw invalid(node, m, "may only say onThrowable = Throwable.class");
          }
          onThrowable = true;
        }
      }
    }
    if (enter == null && exit == null) {
      throw new IllegalArgumentException(
          "advice class " + node.name + " has no @OnMethodEnter or @OnMethodExit method");
    }
    try {
      return new MethodAdvice(enter, skip, exit, onThrowable);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("advice class " + node.name + ": " + e.getMessage(), e);
    }
  }

  /**
   * Checks that every member of a class under {@code prefix} (an internal-name prefix, the agent's
   * own packages) the advice's code uses is public in a public class: inlined, the code runs in the
   * library's class, and anything else fails with an {@code IllegalAccessError} at its first call.
   * {@code classFiles} gives a class file by internal name, or null.
   *
   * @throws IllegalArgumentException naming the advice and the member
   */
  public static void requirePublicReferences(
      MethodAdvice advice, String prefix, java.util.function.Function<String, byte[]> classFiles) {
    java.util.Map<String, ClassNode> read = new java.util.HashMap<>();
    for (Hook hook : new Hook[] {advice.enter(), advice.exit()}) {
      if (hook == null) {
        continue;
      }
      for (AbstractInsnNode insn : hook.code().instructions) {
        String owner;
        String name;
        String desc;
        boolean method;
        if (insn instanceof org.objectweb.asm.tree.MethodInsnNode call) {
          owner = call.owner;
          name = call.name;
          desc = call.desc;
          method = true;
        } else if (insn instanceof org.objectweb.asm.tree.FieldInsnNode field) {
          owner = field.owner;
          name = field.name;
          desc = field.desc;
          method = false;
        } else {
          continue;
        }
        if (!owner.startsWith(prefix) || owner.equals(hook.owner())) {
          continue;
        }
        ClassNode node =
            read.computeIfAbsent(
                owner,
                o -> {
                  byte[] bytes = classFiles.apply(o);
                  if (bytes == null) {
                    return null;
                  }
                  ClassNode n = new ClassNode(Opcodes.ASM9);
                  new ClassReader(bytes).accept(n, ClassReader.SKIP_CODE);
                  return n;
                });
        if (node == null) {
          throw new IllegalArgumentException(
              "advice " + hook + " uses " + owner.replace('/', '.') + ", not in the agent");
        }
        if ((node.access & Opcodes.ACC_PUBLIC) == 0) {
          throw new IllegalArgumentException(
              "advice " + hook + " uses " + owner.replace('/', '.') + ", which is not public");
        }
        // A member declared higher up is not checked here: the JVM finds it in a superclass.
        if (declaredButNotPublic(node, name, desc, method)) {
          throw new IllegalArgumentException(
              "advice "
                  + hook
                  + " uses "
                  + owner.replace('/', '.')
                  + "."
                  + name
                  + ", which is not public");
        }
      }
    }
  }

  private static boolean declaredButNotPublic(
      ClassNode node, String name, String desc, boolean method) {
    if (method) {
      for (MethodNode m : node.methods) {
        if (m.name.equals(name) && m.desc.equals(desc)) {
          return (m.access & Opcodes.ACC_PUBLIC) == 0;
        }
      }
    } else {
      for (var f : node.fields) {
        if (f.name.equals(name) && f.desc.equals(desc)) {
          return (f.access & Opcodes.ACC_PUBLIC) == 0;
        }
      }
    }
    return false;
  }

  private static List<HookArg> bindings(ClassNode owner, MethodNode m) {
    Type[] parameters = Type.getArgumentTypes(m.desc);
    List<HookArg> args = new ArrayList<>();
    for (int i = 0; i < parameters.length; i++) {
      List<AnnotationNode> annotations = new ArrayList<>();
      addAll(annotations, m.invisibleParameterAnnotations, i);
      addAll(annotations, m.visibleParameterAnnotations, i);
      annotations.removeIf(a -> !a.desc.startsWith(PREFIX));
      if (annotations.size() != 1) {
        throw invalid(owner, m, "parameter " + i + " needs exactly one @Advice annotation");
      }
      args.add(binding(owner, m, annotations.get(0), parameters[i], i));
    }
    return args;
  }

  private static HookArg binding(
      ClassNode owner, MethodNode m, AnnotationNode a, Type parameter, int index) {
    String kind = a.desc.substring(PREFIX.length(), a.desc.length() - 1);
    switch (kind) {
      case "This":
        return HookArg.THIS;
      case "Argument":
        return Boolean.FALSE.equals(value(a, "readOnly"))
            ? HookArg.writableArgument((Integer) value(a, "value"))
            : HookArg.argument((Integer) value(a, "value"));
      case "FieldValue":
        return HookArg.field((String) value(a, "value"));
      case "Return":
        return Boolean.FALSE.equals(value(a, "readOnly"))
            ? HookArg.RETURNED_WRITABLE
            : HookArg.RETURNED;
      case "Thrown":
        return Boolean.FALSE.equals(value(a, "readOnly"))
            ? HookArg.THROWN_WRITABLE
            : HookArg.THROWN;
      case "Enter":
        return HookArg.ENTERED;
      case "Origin":
        String pattern = (String) value(a, "value");
        if ((pattern == null || pattern.isEmpty())
            && parameter.getDescriptor().equals("Ljava/lang/Class;")) {
          return HookArg.ORIGIN_TYPE;
        }
        if ("#m#d".equals(pattern) && parameter.getDescriptor().equals("Ljava/lang/String;")) {
          return HookArg.ORIGIN_METHOD;
        }
        throw invalid(
            owner, m, "parameter " + index + ": @Origin is a Class, or a String with \"#m#d\"");
      default:
        throw invalid(owner, m, "parameter " + index + ": @" + kind + " is not a binding");
    }
  }

  /** Code that would not link once copied into another class is refused. */
  private static void requireInlinable(ClassNode owner, MethodNode m) {
    if ((m.access & Opcodes.ACC_STATIC) == 0 || (m.access & Opcodes.ACC_PUBLIC) == 0) {
      throw invalid(owner, m, "must be public and static");
    }
    for (AbstractInsnNode insn : m.instructions) {
      if (insn instanceof InvokeDynamicInsnNode indy
          && !indy.bsm.getOwner().equals(STRING_CONCAT)) {
        // A lambda's body is a private method of the advice class: out of reach once inlined.
        throw invalid(owner, m, "uses invokedynamic (a lambda?), which cannot be inlined");
      }
      if (insn instanceof org.objectweb.asm.tree.MethodInsnNode call
          && call.owner.equals(owner.name)
          && !isPublic(owner, call.name, call.desc, true)) {
        throw invalid(owner, m, "calls " + call.name + " of its own class, which is not public");
      }
      if (insn instanceof org.objectweb.asm.tree.FieldInsnNode field
          && field.owner.equals(owner.name)
          && !isPublic(owner, field.name, field.desc, false)) {
        throw invalid(owner, m, "reads " + field.name + " of its own class, which is not public");
      }
    }
  }

  private static boolean isPublic(ClassNode owner, String name, String desc, boolean method) {
    if (method) {
      for (MethodNode other : owner.methods) {
        if (other.name.equals(name) && other.desc.equals(desc)) {
          return (other.access & Opcodes.ACC_PUBLIC) != 0;
        }
      }
    } else {
      for (var f : owner.fields) {
        if (f.name.equals(name) && f.desc.equals(desc)) {
          return (f.access & Opcodes.ACC_PUBLIC) != 0;
        }
      }
    }
    return false;
  }

  private static void addAll(List<AnnotationNode> out, List<AnnotationNode>[] all, int i) {
    if (all != null && i < all.length && all[i] != null) {
      out.addAll(all[i]);
    }
  }

  private static AnnotationNode annotation(MethodNode m, String desc) {
    for (List<AnnotationNode> list :
        List.of(listOf(m.invisibleAnnotations), listOf(m.visibleAnnotations))) {
      for (AnnotationNode a : list) {
        if (a.desc.equals(desc)) {
          return a;
        }
      }
    }
    return null;
  }

  private static List<AnnotationNode> listOf(List<AnnotationNode> list) {
    return list == null ? List.of() : list;
  }

  private static Object value(AnnotationNode a, String name) {
    if (a.values == null) {
      return null;
    }
    for (int i = 0; i + 1 < a.values.size(); i += 2) {
      if (a.values.get(i).equals(name)) {
        return a.values.get(i + 1);
      }
    }
    return null;
  }

  private static IllegalArgumentException invalid(ClassNode owner, MethodNode m, String what) {
    return new IllegalArgumentException(
        "advice " + owner.name.replace('/', '.') + "." + m.name + " " + what);
  }
}
