package io.faultline.agent.weave;

import static org.objectweb.asm.Opcodes.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AnalyzerAdapter;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Weaves one {@link MethodAdvice} into one method of a class read with expanded frames: the advice
 * methods' code is copied in (inlined), as Byte Buddy's advice is, so it runs in the woven class's
 * loader and may use the library's types.
 *
 * <p>Stack map frames are written, never computed: computing them needs the common superclass of
 * two types, which loads classes inside the class-file transformer. Every frame the woven code adds
 * is known from the method's descriptor: the hook results live in new local slots after the
 * method's own, which every existing frame is extended with, and the blocks the weave adds see only
 * the parameters and those slots. That assumes, as Byte Buddy's advice does, that a method never
 * stores a value of another type into a parameter's slot. Nothing is changed unless everything
 * checks out first; the caller leaves the whole class alone if this throws.
 *
 * <p>The woven method, in order: the enter hook (guarded), the skip test, the original body with
 * each return turned into a jump to the exit block, then the blocks for a throw (a catch-all
 * handler registered after the method's own, so its handlers keep precedence), a skip and the exit:
 * the exit hook (guarded), then the return, or the rethrow.
 */
final class MethodWeaver {

  private static final String THROWABLE = "java/lang/Throwable";

  private final String owner;
  private final List<String> ownerSupertypes;
  private final Map<String, String> instanceFields;
  private final MethodNode method;
  private final MethodAdvice advice;
  private final ErrorHook errors;

  private final boolean isStatic;
  private final boolean isConstructor;
  private final Type[] argumentTypes;
  private final Type returnType;
  private final Type enterType;

  private int enterSlot = -1;
  private int returnSlot = -1;
  private int thrownSlot = -1;
  private int maxLocals;
  private int adviceStack;

  MethodWeaver(
      String owner,
      List<String> ownerSupertypes,
      Map<String, String> instanceFields,
      MethodNode method,
      MethodAdvice advice,
      ErrorHook errors) {
    this.owner = owner;
    this.ownerSupertypes = ownerSupertypes;
    this.instanceFields = instanceFields;
    this.method = method;
    this.advice = advice;
    this.errors = errors;
    this.isStatic = (method.access & ACC_STATIC) != 0;
    this.isConstructor = method.name.equals("<init>");
    this.argumentTypes = Type.getArgumentTypes(method.desc);
    this.returnType = Type.getReturnType(method.desc);
    this.enterType = advice.enter() == null ? Type.VOID_TYPE : advice.enter().returnType();
  }

  /** Weaves the advice in; returns null, or why the method was left as it was. */
  String weave() {
    String refused = refusal();
    if (refused != null) {
      return refused;
    }
    int slot = method.maxLocals;
    if (enterType.getSort() != Type.VOID) {
      enterSlot = slot;
      slot += enterType.getSize();
    }
    if (advice.exit() != null && returnType.getSort() != Type.VOID) {
      returnSlot = slot;
      slot += returnType.getSize();
    }
    if (needsThrownSlot()) {
      thrownSlot = slot;
      slot += 1;
    }
    maxLocals = slot;

    extendExistingFrames();
    InsnList tail = new InsnList();
    LabelNode exitLabel = advice.exit() == null ? null : new LabelNode();
    if (exitLabel != null) {
      replaceReturns(exitLabel);
    }
    LabelNode skipLabel = advice.skip() instanceof Skip.Never ? null : new LabelNode();
    LabelNode bodyStart = new LabelNode();
    LabelNode bodyEnd = new LabelNode();
    InsnList head = new InsnList();
    if (advice.enter() != null) {
      appendEnter(head);
    }
    if (skipLabel != null) {
      appendSkipTest(head, skipLabel);
    }
    if (head.size() > 0 && startsWithFrame()) {
      // The body's own first frame must not share an offset with the enter block's last one.
      head.add(new InsnNode(NOP));
    }
    head.add(bodyStart);
    method.instructions.insert(head);
    method.instructions.add(bodyEnd);

    if (advice.exitOnThrowable()) {
      LabelNode handler = new LabelNode();
      tail.add(handler);
      tail.add(frame(bodyLocals(), THROWABLE));
      tail.add(new VarInsnNode(ASTORE, thrownSlot));
      storeDefaultReturn(tail);
      tail.add(new JumpInsnNode(GOTO, exitLabel));
      // Registered last: the method's own handlers, inside the body, keep precedence.
      method.tryCatchBlocks.add(new TryCatchBlockNode(bodyStart, bodyEnd, handler, THROWABLE));
    }
    if (skipLabel != null) {
      tail.add(skipLabel);
      tail.add(frame(bodyLocals()));
      if (exitLabel != null) {
        storeDefaultReturn(tail);
        if (thrownSlot >= 0) {
          tail.add(new InsnNode(ACONST_NULL));
          tail.add(new VarInsnNode(ASTORE, thrownSlot));
        }
        tail.add(new JumpInsnNode(GOTO, exitLabel));
      } else {
        pushDefault(tail, returnType);
        tail.add(new InsnNode(returnType.getOpcode(IRETURN)));
      }
    }
    if (exitLabel != null) {
      appendExit(tail, exitLabel);
    }
    method.instructions.add(tail);
    method.maxLocals = maxLocals;
    method.maxStack = Math.max(method.maxStack, stackNeeded());
    return null;
  }

  // ---- checks -------------------------------------------------------------------------------

  private String refusal() {
    if ((method.access & (ACC_ABSTRACT | ACC_NATIVE)) != 0 || method.instructions.size() == 0) {
      return "the method has no code";
    }
    if (isConstructor && (advice.enter() != null || advice.exitOnThrowable())) {
      return "a constructor takes an exit hook on return only";
    }
    if (advice.skip() instanceof Skip.OnInstanceOf && !isReference(enterType)) {
      return "skipping on an instance needs an enter hook that returns an object";
    }
    String argsRefused = argumentsRefusal(advice.enter(), false);
    if (argsRefused == null) {
      argsRefused = argumentsRefusal(advice.exit(), true);
    }
    if (argsRefused != null) {
      return argsRefused;
    }
    if (advice.exit() != null && returnsWithMoreOnTheStack()) {
      return "a return leaves more than its value on the operand stack";
    }
    return null;
  }

  private String argumentsRefusal(Hook hook, boolean exit) {
    if (hook == null) {
      return null;
    }
    for (int i = 0; i < hook.args().size(); i++) {
      HookArg arg = hook.args().get(i);
      Type value;
      if (arg instanceof HookArg.This) {
        if (isStatic) {
          return "advice " + hook + " takes the receiver of a static method";
        }
        value = Type.getObjectType(owner);
      } else if (arg instanceof HookArg.Argument a) {
        if (a.index() >= argumentTypes.length) {
          return "advice " + hook + " takes argument " + a.index() + " of " + method.desc;
        }
        value = argumentTypes[a.index()];
      } else if (arg instanceof HookArg.Field f) {
        String descriptor = instanceFields.get(f.name());
        if (isStatic || descriptor == null) {
          return "advice " + hook + " reads field " + f.name() + ", not an instance field here";
        }
        value = Type.getType(descriptor);
      } else if (arg instanceof HookArg.Returned) {
        if (!exit || returnType.getSort() == Type.VOID) {
          return "advice " + hook + " takes the return value of " + method.desc;
        }
        value = returnType;
      } else if (arg instanceof HookArg.Thrown) {
        value = Type.getObjectType(THROWABLE);
      } else if (arg instanceof HookArg.Entered) {
        value = enterType;
      } else if (arg instanceof HookArg.OriginType) {
        value = Type.getType(Class.class);
      } else {
        value = Type.getType(String.class);
      }
      Type parameter = hook.parameterType(i);
      if (arg instanceof HookArg.Argument a && a.writable() && exit) {
        return "advice " + hook + " assigns argument " + a.index() + " on exit, too late to matter";
      }
      boolean writable =
          arg instanceof HookArg.Returned r && r.writable()
              || arg instanceof HookArg.Thrown t && t.writable()
              || arg instanceof HookArg.Argument a && a.writable();
      if (writable && !value.equals(parameter)) {
        return "advice " + hook + " parameter " + i + " must be " + value + " to be assigned";
      }
      if (!assignable(value, parameter, arg instanceof HookArg.This)) {
        return "advice "
            + hook
            + " parameter "
            + i
            + " is "
            + parameter
            + ", the value is "
            + value;
      }
    }
    return null;
  }

  /**
   * Whether the verifier will accept {@code value} where the advice declares {@code parameter},
   * decided without loading the woven library's classes: the same type; {@code Object}; for the
   * receiver, the woven class's direct superclass or interfaces (from its class file); between two
   * types of the JDK's public packages, what their loaded classes say.
   */
  private boolean assignable(Type value, Type parameter, boolean receiver) {
    if (value.equals(parameter)) {
      return true;
    }
    if (!isReference(value) || !isReference(parameter)) {
      return false;
    }
    if (parameter.getDescriptor().equals("Ljava/lang/Object;")) {
      return true;
    }
    if (receiver && ownerSupertypes.contains(parameter.getInternalName())) {
      return true;
    }
    return jdkAssignable(value, parameter);
  }

  private static boolean jdkAssignable(Type value, Type parameter) {
    if (value.getSort() != Type.OBJECT
        || parameter.getSort() != Type.OBJECT
        || !value.getInternalName().startsWith("java/")
        || !parameter.getInternalName().startsWith("java/")) {
      return false;
    }
    try {
      // Public JDK classes, loaded by the boot loader long before any library: never one whose
      // loading is in flight on another thread.
      Class<?> p = Class.forName(parameter.getClassName(), false, null);
      Class<?> v = Class.forName(value.getClassName(), false, null);
      return p.isAssignableFrom(v);
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private static boolean isReference(Type type) {
    return type.getSort() == Type.OBJECT || type.getSort() == Type.ARRAY;
  }

  /** Whether some return leaves other values below its own: the exit jump needs a clean stack. */
  private boolean returnsWithMoreOnTheStack() {
    boolean[] found = new boolean[1];
    AnalyzerAdapter analyzer =
        new AnalyzerAdapter(ASM9, owner, method.access, method.name, method.desc, null) {
          @Override
          public void visitInsn(int opcode) {
            if (opcode >= IRETURN && opcode <= RETURN && stack != null) {
              int expected = opcode == RETURN ? 0 : Type.getReturnType(method.desc).getSize();
              if (stack.size() != expected) {
                found[0] = true;
              }
            }
            super.visitInsn(opcode);
          }
        };
    method.instructions.accept(analyzer);
    // The analysis made the labels' ASM twins; the writer must start from fresh ones.
    method.instructions.resetLabels();
    return found[0];
  }

  private boolean needsThrownSlot() {
    return advice.exitOnThrowable()
        || advice.exit() != null && advice.exit().args().contains(HookArg.THROWN_WRITABLE);
  }

  // ---- frames -------------------------------------------------------------------------------

  /** The parameters as a frame's locals; the receiver initialised (exit blocks run after it). */
  private List<Object> parameterLocals() {
    List<Object> locals = new ArrayList<>();
    if (!isStatic) {
      locals.add(owner);
    }
    for (Type t : argumentTypes) {
      locals.add(frameType(t));
    }
    return locals;
  }

  /** The locals while the body runs: the parameters and the enter hook's result. */
  private List<Object> bodyLocals() {
    return enterSlot < 0
        ? parameterLocals()
        : withSlot(parameterLocals(), enterSlot, frameType(enterType));
  }

  /** The locals of the exit block: the body's, the return value and what was thrown. */
  private List<Object> exitLocals() {
    List<Object> locals = bodyLocals();
    if (returnSlot >= 0) {
      locals = withSlot(locals, returnSlot, frameType(returnType));
    }
    if (thrownSlot >= 0) {
      locals = withSlot(locals, thrownSlot, THROWABLE);
    }
    return locals;
  }

  private void extendExistingFrames() {
    if (enterSlot < 0) {
      return;
    }
    Object type = frameType(enterType);
    for (AbstractInsnNode node : method.instructions) {
      if (node instanceof FrameNode frame) {
        frame.local = withSlot(frame.local == null ? List.of() : frame.local, enterSlot, type);
      }
    }
  }

  /** {@code locals} with {@code type} at {@code slot}, the slots between them unusable. */
  static List<Object> withSlot(List<Object> locals, int slot, Object type) {
    List<Object> out = new ArrayList<>(locals);
    int used = 0;
    for (Object t : locals) {
      used += t == LONG || t == DOUBLE ? 2 : 1;
    }
    if (used > slot) {
      throw new IllegalStateException("a frame uses slot " + slot + " already");
    }
    for (; used < slot; used++) {
      out.add(TOP);
    }
    out.add(type);
    return out;
  }

  static Object frameType(Type type) {
    switch (type.getSort()) {
      case Type.BOOLEAN:
      case Type.CHAR:
      case Type.BYTE:
      case Type.SHORT:
      case Type.INT:
        return INTEGER;
      case Type.FLOAT:
        return FLOAT;
      case Type.LONG:
        return LONG;
      case Type.DOUBLE:
        return DOUBLE;
      case Type.ARRAY:
        return type.getDescriptor();
      case Type.OBJECT:
        return type.getInternalName();
      default:
        throw new IllegalArgumentException("no frame type for " + type);
    }
  }

  private static FrameNode frame(List<Object> locals, Object... stack) {
    return new FrameNode(F_NEW, locals.size(), locals.toArray(), stack.length, stack);
  }

  private boolean startsWithFrame() {
    for (AbstractInsnNode node : method.instructions) {
      if (node instanceof FrameNode) {
        return true;
      }
      if (!(node instanceof LabelNode) && !(node instanceof LineNumberNode)) {
        return false;
      }
    }
    return false;
  }

  // ---- code ---------------------------------------------------------------------------------

  private void appendEnter(InsnList out) {
    InsnList onError = new InsnList();
    if (enterSlot >= 0) {
      pushDefault(onError, enterType);
      onError.add(new VarInsnNode(enterType.getOpcode(ISTORE), enterSlot));
    }
    List<Object> before = initialLocals();
    guarded(
        out,
        done -> inline(advice.enter(), false, before, done, enterSlot),
        onError,
        before,
        bodyLocals());
  }

  /** The locals on entry: the receiver uninitialised in a constructor. */
  private List<Object> initialLocals() {
    List<Object> locals = parameterLocals();
    if (isConstructor) {
      locals.set(0, UNINITIALIZED_THIS);
    }
    return locals;
  }

  private void appendSkipTest(InsnList out, LabelNode skip) {
    out.add(new VarInsnNode(enterType.getOpcode(ILOAD), enterSlot));
    if (advice.skip() instanceof Skip.OnInstanceOf on) {
      out.add(new TypeInsnNode(INSTANCEOF, on.internalName()));
      out.add(new JumpInsnNode(IFNE, skip));
      return;
    }
    switch (enterType.getSort()) {
      case Type.LONG:
        out.add(new InsnNode(LCONST_0));
        out.add(new InsnNode(LCMP));
        out.add(new JumpInsnNode(IFNE, skip));
        break;
      case Type.FLOAT:
        out.add(new InsnNode(FCONST_0));
        out.add(new InsnNode(FCMPL));
        out.add(new JumpInsnNode(IFNE, skip));
        break;
      case Type.DOUBLE:
        out.add(new InsnNode(DCONST_0));
        out.add(new InsnNode(DCMPL));
        out.add(new JumpInsnNode(IFNE, skip));
        break;
      case Type.OBJECT:
      case Type.ARRAY:
        out.add(new JumpInsnNode(IFNONNULL, skip));
        break;
      default:
        out.add(new JumpInsnNode(IFNE, skip));
    }
  }

  private void replaceReturns(LabelNode exit) {
    for (AbstractInsnNode node : method.instructions.toArray()) {
      int opcode = node.getOpcode();
      if (opcode < IRETURN || opcode > RETURN) {
        continue;
      }
      InsnList jump = new InsnList();
      if (returnSlot >= 0) {
        jump.add(new VarInsnNode(returnType.getOpcode(ISTORE), returnSlot));
      }
      if (thrownSlot >= 0) {
        jump.add(new InsnNode(ACONST_NULL));
        jump.add(new VarInsnNode(ASTORE, thrownSlot));
      }
      jump.add(new JumpInsnNode(GOTO, exit));
      method.instructions.insert(node, jump);
      method.instructions.remove(node);
    }
  }

  private void storeDefaultReturn(InsnList out) {
    if (returnSlot >= 0) {
      pushDefault(out, returnType);
      out.add(new VarInsnNode(returnType.getOpcode(ISTORE), returnSlot));
    }
  }

  private void appendExit(InsnList out, LabelNode exit) {
    List<Object> locals = exitLocals();
    out.add(exit);
    out.add(frame(locals));
    guarded(
        out, done -> inline(advice.exit(), true, locals, done, -1), new InsnList(), locals, locals);
    if (thrownSlot >= 0) {
      LabelNode returns = new LabelNode();
      out.add(new VarInsnNode(ALOAD, thrownSlot));
      out.add(new JumpInsnNode(IFNULL, returns));
      out.add(new VarInsnNode(ALOAD, thrownSlot));
      out.add(new InsnNode(ATHROW));
      out.add(returns);
      out.add(frame(locals));
    }
    if (returnSlot >= 0) {
      out.add(new VarInsnNode(returnType.getOpcode(ILOAD), returnSlot));
    }
    out.add(new InsnNode(returnType.getOpcode(IRETURN)));
  }

  /**
   * The advice's code, to run with the locals {@code outer}: its parameters are stored from what
   * they are bound to into slots of its own after every other, its own locals follow, its frames
   * are {@code outer} with its locals placed there, and each of its returns stores the result in
   * {@code resultSlot} (drops it when negative), writes the assignable parameters back and jumps to
   * {@code done}. Its exception handlers come before the guard's, so they keep precedence.
   */
  private InsnList inline(
      Hook hook, boolean exit, List<Object> outer, LabelNode done, int resultSlot) {
    InsnList out = new InsnList();
    int base = maxLocals;
    maxLocals += Math.max(hook.code().maxLocals, 1);
    for (int i = 0; i < hook.args().size(); i++) {
      Type type = hook.parameterType(i);
      pushBinding(out, hook.args().get(i), exit, type);
      out.add(new VarInsnNode(type.getOpcode(ISTORE), base + hook.parameterSlot(i)));
    }
    Map<LabelNode, LabelNode> labels = new HashMap<>();
    for (AbstractInsnNode insn : hook.code().instructions) {
      if (insn instanceof LabelNode label) {
        labels.put(label, new LabelNode());
      }
    }
    boolean started = false;
    for (AbstractInsnNode insn : hook.code().instructions) {
      if (insn instanceof LineNumberNode) {
        continue;
      }
      if (insn instanceof FrameNode f) {
        if (!started && hook.args().isEmpty()) {
          // Its first frame must not share an offset with the one before the guarded block.
          out.add(new InsnNode(NOP));
        }
        FrameNode copy = (FrameNode) f.clone(labels);
        copy.local = withLocals(outer, base, copy.local == null ? List.of() : copy.local);
        out.add(copy);
        started = true;
        continue;
      }
      int opcode = insn.getOpcode();
      if (opcode >= IRETURN && opcode <= RETURN) {
        Type result = hook.returnType();
        if (resultSlot >= 0) {
          out.add(new VarInsnNode(result.getOpcode(ISTORE), resultSlot));
        } else if (result.getSize() == 2) {
          out.add(new InsnNode(POP2));
        } else if (result.getSize() == 1) {
          out.add(new InsnNode(POP));
        }
        writeBack(out, hook, base);
        out.add(new JumpInsnNode(GOTO, done));
        started = true;
        continue;
      }
      AbstractInsnNode copy = insn.clone(labels);
      if (copy instanceof VarInsnNode v) {
        v.var += base;
      } else if (copy instanceof IincInsnNode inc) {
        inc.var += base;
      }
      out.add(copy);
      if (opcode >= 0) {
        started = true;
      }
    }
    for (TryCatchBlockNode t : hook.code().tryCatchBlocks) {
      method.tryCatchBlocks.add(
          new TryCatchBlockNode(
              labels.get(t.start), labels.get(t.end), labels.get(t.handler), t.type));
    }
    adviceStack = Math.max(adviceStack, hook.code().maxStack);
    return out;
  }

  /** {@code outer}, then the advice's frame locals from slot {@code base}. */
  private static List<Object> withLocals(List<Object> outer, int base, List<Object> advice) {
    List<Object> out = new ArrayList<>(outer);
    int used = 0;
    for (Object t : outer) {
      used += t == LONG || t == DOUBLE ? 2 : 1;
    }
    for (; used < base; used++) {
      out.add(TOP);
    }
    out.addAll(advice);
    return out;
  }

  private void writeBack(InsnList out, Hook hook, int base) {
    for (int i = 0; i < hook.args().size(); i++) {
      HookArg arg = hook.args().get(i);
      Type type = hook.parameterType(i);
      if (arg instanceof HookArg.Returned r && r.writable()) {
        out.add(new VarInsnNode(type.getOpcode(ILOAD), base + hook.parameterSlot(i)));
        out.add(new VarInsnNode(returnType.getOpcode(ISTORE), returnSlot));
      } else if (arg instanceof HookArg.Thrown t && t.writable()) {
        out.add(new VarInsnNode(ALOAD, base + hook.parameterSlot(i)));
        out.add(new VarInsnNode(ASTORE, thrownSlot));
      } else if (arg instanceof HookArg.Argument a && a.writable()) {
        out.add(new VarInsnNode(type.getOpcode(ILOAD), base + hook.parameterSlot(i)));
        out.add(new VarInsnNode(type.getOpcode(ISTORE), slotOf(a.index())));
      }
    }
  }

  /**
   * The code {@code body} makes (it ends by jumping to the label it is given), with what it throws
   * handed to the error hook and {@code onError} run instead; continues at a frame of {@code
   * after}. The error hook's own failure (its class not visible to this class's loader) is dropped.
   */
  private void guarded(
      InsnList out,
      java.util.function.Function<LabelNode, InsnList> body,
      InsnList onError,
      List<Object> before,
      List<Object> after) {
    if (onError.size() == 0 && !after.equals(before)) {
      throw new IllegalStateException("code that changes the locals needs code for its failure");
    }
    LabelNode start = new LabelNode();
    LabelNode end = new LabelNode();
    LabelNode handler = new LabelNode();
    LabelNode handlerCallEnd = new LabelNode();
    LabelNode handlerFailed = new LabelNode();
    LabelNode done = new LabelNode();
    LabelNode handled = onError.size() == 0 ? done : new LabelNode();
    out.add(start);
    out.add(body.apply(done));
    out.add(end);

    out.add(handler);
    out.add(frame(before, THROWABLE));
    out.add(new LdcInsnNode(errors.module()));
    out.add(new MethodInsnNode(INVOKESTATIC, errors.owner(), errors.name(), ErrorHook.DESCRIPTOR));
    out.add(handlerCallEnd);
    out.add(new JumpInsnNode(GOTO, handled));
    out.add(handlerFailed);
    out.add(frame(before, THROWABLE));
    out.add(new InsnNode(POP));
    if (handled != done) {
      out.add(handled);
      out.add(frame(before));
      out.add(onError);
    }
    out.add(done);
    out.add(frame(after));
    // After the advice's own handlers, which lie inside this range.
    method.tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, THROWABLE));
    method.tryCatchBlocks.add(
        new TryCatchBlockNode(handler, handlerCallEnd, handlerFailed, THROWABLE));
  }

  private void pushBinding(InsnList out, HookArg arg, boolean exit, Type parameter) {
    if (arg instanceof HookArg.This) {
      out.add(new VarInsnNode(ALOAD, 0));
    } else if (arg instanceof HookArg.Argument a) {
      out.add(new VarInsnNode(argumentTypes[a.index()].getOpcode(ILOAD), slotOf(a.index())));
    } else if (arg instanceof HookArg.Field f) {
      out.add(new VarInsnNode(ALOAD, 0));
      out.add(new FieldInsnNode(GETFIELD, owner, f.name(), instanceFields.get(f.name())));
    } else if (arg instanceof HookArg.Returned) {
      out.add(new VarInsnNode(returnType.getOpcode(ILOAD), returnSlot));
    } else if (arg instanceof HookArg.Thrown) {
      if (exit && thrownSlot >= 0) {
        out.add(new VarInsnNode(ALOAD, thrownSlot));
      } else {
        out.add(new InsnNode(ACONST_NULL));
      }
    } else if (arg instanceof HookArg.Entered) {
      out.add(new VarInsnNode(enterType.getOpcode(ILOAD), enterSlot));
    } else if (arg instanceof HookArg.OriginType) {
      out.add(new LdcInsnNode(Type.getObjectType(owner)));
    } else {
      out.add(new LdcInsnNode(method.name + method.desc));
    }
  }

  private int slotOf(int argument) {
    int slot = isStatic ? 0 : 1;
    for (int i = 0; i < argument; i++) {
      slot += argumentTypes[i].getSize();
    }
    return slot;
  }

  private static void pushDefault(InsnList out, Type type) {
    switch (type.getSort()) {
      case Type.VOID:
        return;
      case Type.LONG:
        out.add(new InsnNode(LCONST_0));
        return;
      case Type.FLOAT:
        out.add(new InsnNode(FCONST_0));
        return;
      case Type.DOUBLE:
        out.add(new InsnNode(DCONST_0));
        return;
      case Type.OBJECT:
      case Type.ARRAY:
        out.add(new InsnNode(ACONST_NULL));
        return;
      default:
        out.add(new InsnNode(ICONST_0));
    }
  }

  /** The operand stack the added code needs at most: the advice's own, a binding, a comparison. */
  private int stackNeeded() {
    return Math.max(adviceStack, 4);
  }
}
