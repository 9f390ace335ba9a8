package io.faultline.agent.weave;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Weaves hooks into a class file: each method the {@link Plan} gives advice for. Reads and writes
 * with ASM alone, loads no class and resolves no type, so it may run inside a class-file
 * transformer while any class-loading lock is held. A method that cannot be woven safely is left as
 * it was and reported; if anything unexpected happens the whole class is left as it was.
 */
public final class ClassWeaver {

  /** The oldest class file version woven: Java 7, the first whose methods all carry frames. */
  static final int OLDEST_VERSION = Opcodes.V1_7;

  private ClassWeaver() {}

  /** Which advice, if any, goes into a method of the class being woven. */
  @FunctionalInterface
  public interface Plan {
    /** The advice for {@code method}, or null to leave it. */
    MethodAdvice adviceFor(MethodInfo method);
  }

  /**
   * The class being woven, as its class file says.
   *
   * @param internalName its internal name
   * @param access its access flags
   * @param annotations the descriptors of its annotations (visible and invisible)
   */
  public record ClassInfo(String internalName, int access, List<String> annotations) {}

  /**
   * A method of the class being woven, as its class file says.
   *
   * @param type the class
   * @param name the method's name
   * @param descriptor its descriptor
   * @param access its access flags
   * @param annotations the descriptors of its annotations (visible and invisible)
   */
  public record MethodInfo(
      ClassInfo type, String name, String descriptor, int access, List<String> annotations) {}

  /**
   * What a weave did.
   *
   * @param classFile the woven class file, or null when nothing was woven
   * @param woven how many methods were woven
   * @param refused why each method the plan gave advice for was left as it was
   */
  public record Result(byte[] classFile, int woven, List<String> refused) {
    /** Copies the list. */
    public Result {
      refused = List.copyOf(refused);
    }
  }

  /** Weaves {@code classFile} by {@code plan}; never throws. */
  public static Result weave(byte[] classFile, Plan plan, ErrorHook errors) {
    try {
      ClassReader reader = new ClassReader(classFile);
      int version = reader.readUnsignedShort(6);
      if (version < OLDEST_VERSION) {
        return new Result(null, 0, List.of("class file version " + version + " is too old"));
      }
      // First the plan, from the class file without its code.
      ClassNode outline = new ClassNode(Opcodes.ASM9);
      reader.accept(outline, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG);
      Map<String, MethodAdvice> planned = new HashMap<>();
      ClassInfo type = classInfo(outline);
      for (MethodNode method : outline.methods) {
        MethodAdvice advice = plan.adviceFor(methodInfo(type, method));
        if (advice != null) {
          planned.put(method.name + method.desc, advice);
        }
      }
      if (planned.isEmpty()) {
        return new Result(null, 0, List.of());
      }
      Map<String, String> fields = new HashMap<>();
      for (FieldNode f : outline.fields) {
        if ((f.access & Opcodes.ACC_STATIC) == 0) {
          fields.put(f.name, f.desc);
        }
      }
      List<String> supertypes = new ArrayList<>(outline.interfaces);
      if (outline.superName != null) {
        supertypes.add(outline.superName);
      }
      // Then the weave: only the planned methods' code is parsed; every other method is copied
      // byte for byte (a writer built on the reader does that for a method it is handed back).
      ClassWriter writer = new ClassWriter(reader, 0);
      int[] woven = new int[1];
      List<String> refused = new ArrayList<>();
      reader.accept(
          new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(
                int access, String name, String desc, String signature, String[] exceptions) {
              MethodVisitor target = super.visitMethod(access, name, desc, signature, exceptions);
              MethodAdvice advice = planned.get(name + desc);
              if (advice == null) {
                return target;
              }
              return new MethodNode(Opcodes.ASM9, access, name, desc, signature, exceptions) {
                @Override
                public void visitEnd() {
                  String why =
                      new MethodWeaver(outline.name, supertypes, fields, this, advice, errors)
                          .weave();
                  if (why == null) {
                    woven[0]++;
                  } else {
                    refused.add(name + desc + ": " + why);
                  }
                  accept(target);
                }
              };
            }
          },
          ClassReader.EXPAND_FRAMES);
      if (woven[0] == 0) {
        return new Result(null, 0, refused);
      }
      return new Result(writer.toByteArray(), woven[0], refused);
    } catch (RuntimeException | LinkageError e) {
      return new Result(null, 0, List.of("the class could not be woven: " + e));
    }
  }

  private static ClassInfo classInfo(ClassNode node) {
    return new ClassInfo(
        node.name, node.access, descriptors(node.visibleAnnotations, node.invisibleAnnotations));
  }

  private static MethodInfo methodInfo(ClassInfo type, MethodNode method) {
    return new MethodInfo(
        type,
        method.name,
        method.desc,
        method.access,
        descriptors(method.visibleAnnotations, method.invisibleAnnotations));
  }

  /**
   * Hands every method of {@code classFile} to {@code methods}, without its code: what a {@link
   * Plan} would be asked about.
   */
  public static void scan(byte[] classFile, java.util.function.Consumer<MethodInfo> methods) {
    ClassNode node = new ClassNode(Opcodes.ASM9);
    new ClassReader(classFile).accept(node, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG);
    ClassInfo type = classInfo(node);
    for (MethodNode method : node.methods) {
      methods.accept(methodInfo(type, method));
    }
  }

  private static List<String> descriptors(
      List<org.objectweb.asm.tree.AnnotationNode> visible,
      List<org.objectweb.asm.tree.AnnotationNode> invisible) {
    if (visible == null && invisible == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (List<org.objectweb.asm.tree.AnnotationNode> list :
        java.util.Arrays.asList(visible, invisible)) {
      if (list != null) {
        list.forEach(a -> out.add(a.desc));
      }
    }
    return out;
  }
}
