package io.faultline.agent.weave;

import java.util.List;
import org.objectweb.asm.Type;

/**
 * A public static method the woven code calls, and what it passes: {@code owner} is the hook
 * class's internal name ({@code io/faultline/agent/kafka/Hooks}), {@code descriptor} the method's.
 * The woven class's loader must see the hook class; a hook that cannot be linked fails like any
 * other hook error (counted, never thrown to the application).
 *
 * @param owner internal name of the class declaring the hook
 * @param name the hook method's name
 * @param descriptor the hook method's descriptor
 * @param args one per hook parameter, in order
 */
public record Hook(String owner, String name, String descriptor, List<HookArg> args) {

  /** Rejects a hook whose parameters and arguments do not pair up. */
  public Hook {
    if (owner == null || owner.isEmpty() || owner.indexOf('.') >= 0) {
      throw new IllegalArgumentException(
          "hook owner '" + owner + "' must be an internal name, e.g. io/faultline/agent/Hooks");
    }
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("hook on " + owner + " needs a method name");
    }
    Type[] parameters;
    try {
      parameters = Type.getArgumentTypes(descriptor);
      Type.getReturnType(descriptor);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "hook " + owner + "." + name + " has no valid method descriptor: " + descriptor, e);
    }
    args = List.copyOf(args);
    if (parameters.length != args.size()) {
      throw new IllegalArgumentException(
          "hook "
              + owner
              + "."
              + name
              + descriptor
              + " takes "
              + parameters.length
              + " parameters but "
              + args.size()
              + " arguments were given");
    }
  }

  /** A hook passing {@code args}. */
  public static Hook of(String owner, String name, String descriptor, HookArg... args) {
    return new Hook(owner, name, descriptor, List.of(args));
  }

  Type returnType() {
    return Type.getReturnType(descriptor);
  }

  Type parameterType(int i) {
    return Type.getArgumentTypes(descriptor)[i];
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
    return owner.replace('/', '.') + "." + name + descriptor;
  }
}
