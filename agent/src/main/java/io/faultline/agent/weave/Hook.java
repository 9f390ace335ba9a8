package io.faultline.agent.weave;

import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.MethodNode;

/**
 * An advice method to inline: its code, as read from the advice class file with expanded frames,
 * and what each of its parameters is bound to.
 *
 * @param owner internal name of the advice class
 * @param code the advice method (public, static, with code)
 * @param args one per parameter, in order
 */
public record Hook(String owner, MethodNode code, List<HookArg> args) {

  /** Rejects a method that cannot be inlined or whose parameters and bindings do not pair up. */
  public Hook {
    if (owner == null || owner.isEmpty() || owner.indexOf('.') >= 0) {
      throw new IllegalArgumentException(
          "advice class '" + owner + "' must be an internal name, e.g. io/faultline/agent/X");
    }
    if ((code.access & Opcodes.ACC_STATIC) == 0 || (code.access & Opcodes.ACC_PUBLIC) == 0) {
      throw new IllegalArgumentException(
          "advice " + owner + "." + code.name + " must be public and static");
    }
    if (code.instructions.size() == 0) {
      throw new IllegalArgumentException("advice " + owner + "." + code.name + " has no code");
    }
    args = List.copyOf(args);
    int parameters = Type.getArgumentTypes(code.desc).length;
    if (parameters != args.size()) {
      throw new IllegalArgumentException(
          "advice "
              + owner
              + "."
              + code.name
              + code.desc
              + " takes "
              + parameters
              + " parameters but "
              + args.size()
              + " bindings were given");
    }
  }

  Type returnType() {
    return Type.getReturnType(code.desc);
  }

  Type parameterType(int i) {
    return Type.getArgumentTypes(code.desc)[i];
  }

  /** The local slot of parameter {@code i} in the advice method. */
  int parameterSlot(int i) {
    int slot = 0;
    Type[] types = Type.getArgumentTypes(code.desc);
    for (int p = 0; p < i; p++) {
      slot += types[p].getSize();
    }
    return slot;
  }

  boolean uses(Class<? extends HookArg> kind) {
    for (HookArg a : args) {
      if (kind.isInstance(a)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return owner.replace('/', '.') + "." + code.name + code.desc;
  }
}
