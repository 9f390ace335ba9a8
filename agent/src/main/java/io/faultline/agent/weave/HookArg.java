package io.faultline.agent.weave;

/**
 * What an advice method's parameter is bound to, one per parameter, in order: the meaning of its
 * {@link Advice} annotation.
 *
 * <p>The argument-less kinds are single instances, and the records write out {@code equals} and
 * {@code hashCode}: a record's generated ones bootstrap method handles at their first call, dozens
 * of generated classes that every JVM start with the agent paid for while the weaver compared its
 * arguments.
 */
public sealed interface HookArg {

  /** The woven method's receiver; not in static methods. */
  HookArg THIS = new This();

  /** What the method returns; exit only (its type's default when it threw or was skipped). */
  HookArg RETURNED = new Returned(false);

  /** {@link #RETURNED}, and what the advice assigns is returned instead. */
  HookArg RETURNED_WRITABLE = new Returned(true);

  /** What the method threw, or null; exit only. */
  HookArg THROWN = new Thrown(false);

  /** {@link #THROWN}, and what the advice assigns is thrown instead (null: return). */
  HookArg THROWN_WRITABLE = new Thrown(true);

  /** What the enter hook returned; exit only. */
  HookArg ENTERED = new Entered();

  /** The woven class, as a {@code Class}. */
  HookArg ORIGIN_TYPE = new OriginType();

  /** The woven method's name followed by its descriptor, e.g. {@code run()V}. */
  HookArg ORIGIN_METHOD = new OriginMethod();

  /** The method's parameter {@code index} (from 0), as it is when the hook runs. */
  static HookArg argument(int index) {
    return new Argument(index, false);
  }

  /** {@link #argument}, and what an enter hook assigns is what the method's body sees. */
  static HookArg writableArgument(int index) {
    return new Argument(index, true);
  }

  /** The instance field {@code name} the woven class itself declares, read from the receiver. */
  static HookArg field(String name) {
    return new Field(name);
  }

  /** See {@link #THIS}. */
  final class This implements HookArg {
    private This() {}
  }

  /** See {@link #argument} and {@link #writableArgument}. */
  record Argument(int index, boolean writable) implements HookArg {
    /** Rejects a negative index. */
    public Argument {
      if (index < 0) {
        throw new IllegalArgumentException("argument index " + index + " is negative");
      }
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Argument a && a.index == index && a.writable == writable;
    }

    @Override
    public int hashCode() {
      return 31 * (31 + index) + (writable ? 1 : 0);
    }
  }

  /** See {@link #field}. */
  record Field(String name) implements HookArg {
    /** Rejects an empty name. */
    public Field {
      if (name == null || name.isEmpty()) {
        throw new IllegalArgumentException("a field hook argument needs the field's name");
      }
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Field f && f.name.equals(name);
    }

    @Override
    public int hashCode() {
      return name.hashCode();
    }
  }

  /** See {@link #RETURNED} and {@link #RETURNED_WRITABLE}. */
  record Returned(boolean writable) implements HookArg {
    @Override
    public boolean equals(Object o) {
      return o instanceof Returned r && r.writable == writable;
    }

    @Override
    public int hashCode() {
      return writable ? 3 : 2;
    }
  }

  /** See {@link #THROWN} and {@link #THROWN_WRITABLE}. */
  record Thrown(boolean writable) implements HookArg {
    @Override
    public boolean equals(Object o) {
      return o instanceof Thrown r && r.writable == writable;
    }

    @Override
    public int hashCode() {
      return writable ? 5 : 4;
    }
  }

  /** See {@link #ENTERED}. */
  final class Entered implements HookArg {
    private Entered() {}
  }

  /** See {@link #ORIGIN_TYPE}. */
  final class OriginType implements HookArg {
    private OriginType() {}
  }

  /** See {@link #ORIGIN_METHOD}. */
  final class OriginMethod implements HookArg {
    private OriginMethod() {}
  }
}
