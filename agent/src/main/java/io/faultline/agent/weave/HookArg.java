package io.faultline.agent.weave;

/**
 * What an advice method's parameter is bound to, one per parameter, in order: the meaning of its
 * {@link Advice} annotation.
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
    return new Argument(index);
  }

  /** The instance field {@code name} the woven class itself declares, read from the receiver. */
  static HookArg field(String name) {
    return new Field(name);
  }

  /** See {@link #THIS}. */
  record This() implements HookArg {}

  /** See {@link #argument}. */
  record Argument(int index) implements HookArg {
    /** Rejects a negative index. */
    public Argument {
      if (index < 0) {
        throw new IllegalArgumentException("argument index " + index + " is negative");
      }
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
  }

  /** See {@link #RETURNED} and {@link #RETURNED_WRITABLE}. */
  record Returned(boolean writable) implements HookArg {}

  /** See {@link #THROWN} and {@link #THROWN_WRITABLE}. */
  record Thrown(boolean writable) implements HookArg {}

  /** See {@link #ENTERED}. */
  record Entered() implements HookArg {}

  /** See {@link #ORIGIN_TYPE}. */
  record OriginType() implements HookArg {}

  /** See {@link #ORIGIN_METHOD}. */
  record OriginMethod() implements HookArg {}
}
