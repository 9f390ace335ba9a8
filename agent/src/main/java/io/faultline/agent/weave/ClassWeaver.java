package io.faultline.agent.weave;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
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

  /**
   * A class file read once without its code: what a {@link Plan} is asked about, and what a weave
   * needs besides the planned methods' code. A transformer that both matches and weaves a class
   * parses its outline once for both.
   */
  public static final class Outline {
    private final ClassReader reader;
    private final ClassInfo type;
    private final List<MethodInfo> methods;
    private final Map<String, String> instanceFields;
    private final List<String> supertypes;

    private Outline(
        ClassReader reader,
        ClassInfo type,
        List<MethodInfo> methods,
        Map<String, String> instanceFields,
        List<String> supertypes) {
      this.reader = reader;
      this.type = type;
      this.methods = methods;
      this.instanceFields = instanceFields;
      this.supertypes = supertypes;
    }

    /** The class. */
    public ClassInfo type() {
      return type;
    }

    /** Its methods, in class-file order. */
    public List<MethodInfo> methods() {
      return methods;
    }
  }

  /**
   * Reads the outline of {@code classFile}.
   *
   * @throws IllegalArgumentException (or another runtime exception of ASM's) when it is malformed
   */
  public static Outline outline(byte[] classFile) {
    ClassReader reader = new ClassReader(classFile);
    OutlineReader out = new OutlineReader();
    reader.accept(out, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return out.outline(reader);
  }

  /** Weaves {@code classFile} by {@code plan}; never throws. */
  public static Result weave(byte[] classFile, Plan plan, ErrorHook errors) {
    Outline outline;
    try {
      outline = outline(classFile);
    } catch (RuntimeException | LinkageError e) {
      return new Result(null, 0, List.of("the class could not be woven: " + e));
    }
    return weave(outline, plan, errors);
  }

  /** Weaves the class file {@code outline} was read from by {@code plan}; never throws. */
  public static Result weave(Outline outline, Plan plan, ErrorHook errors) {
    try {
      ClassReader reader = outline.reader;
      int version = reader.readUnsignedShort(6);
      if (version < OLDEST_VERSION) {
        return new Result(null, 0, List.of("class file version " + version + " is too old"));
      }
      Map<String, MethodAdvice> planned = new HashMap<>();
      for (MethodInfo method : outline.methods) {
        MethodAdvice advice = plan.adviceFor(method);
        if (advice != null) {
          planned.put(method.name() + method.descriptor(), advice);
        }
      }
      if (planned.isEmpty()) {
        return new Result(null, 0, List.of());
      }
      // Only the planned methods' code is parsed; every other method is copied byte for byte (a
      // writer built on the reader does that for a method it is handed back).
      ClassWriter writer = new ClassWriter(reader, 0);
      int[] woven = new int[1];
      List<String> refused = new ArrayList<>();
      String owner = outline.type.internalName();
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
                      new MethodWeaver(
                              owner,
                              outline.supertypes,
                              outline.instanceFields,
                              this,
                              advice,
                              errors)
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

  /** Collects an outline with ASM's visitor API alone: no tree of the class is built. */
  private static final class OutlineReader extends ClassVisitor {
    private String name;
    private int access;
    private final List<String> annotations = new ArrayList<>();
    private final List<OutlineMethod> methods = new ArrayList<>();
    private final Map<String, String> instanceFields = new HashMap<>();
    private final List<String> supertypes = new ArrayList<>();

    OutlineReader() {
      super(Opcodes.ASM9);
    }

    @Override
    public void visit(
        int version,
        int access,
        String name,
        String signature,
        String superName,
        String[] interfaces) {
      this.name = name;
      this.access = access;
      if (interfaces != null) {
        supertypes.addAll(Arrays.asList(interfaces));
      }
      if (superName != null) {
        supertypes.add(superName);
      }
    }

    @Override
    public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
      annotations.add(descriptor);
      return null;
    }

    @Override
    public FieldVisitor visitField(
        int access, String name, String descriptor, String signature, Object value) {
      if ((access & Opcodes.ACC_STATIC) == 0) {
        instanceFields.put(name, descriptor);
      }
      return null;
    }

    @Override
    public MethodVisitor visitMethod(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      OutlineMethod method = new OutlineMethod(access, name, descriptor);
      methods.add(method);
      return method;
    }

    Outline outline(ClassReader reader) {
      ClassInfo type = new ClassInfo(name, access, List.copyOf(annotations));
      List<MethodInfo> infos = new ArrayList<>(methods.size());
      for (OutlineMethod m : methods) {
        infos.add(new MethodInfo(type, m.name, m.descriptor, m.access, m.annotations()));
      }
      return new Outline(reader, type, List.copyOf(infos), instanceFields, List.copyOf(supertypes));
    }
  }

  /** A method of an outline: the annotations it declares, as the reader visits them. */
  private static final class OutlineMethod extends MethodVisitor {
    private final int access;
    private final String name;
    private final String descriptor;
    private List<String> annotations;

    OutlineMethod(int access, String name, String descriptor) {
      super(Opcodes.ASM9);
      this.access = access;
      this.name = name;
      this.descriptor = descriptor;
    }

    @Override
    public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
      if (annotations == null) {
        annotations = new ArrayList<>(2);
      }
      annotations.add(annotation);
      return null;
    }

    List<String> annotations() {
      return annotations == null ? List.of() : List.copyOf(annotations);
    }
  }
}
