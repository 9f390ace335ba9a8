package io.faultline.agent.weave;

/**
 * A value the woven code passes to a hook method, one per parameter of the hook, in order. What
 * each stands for mirrors the advice annotations it replaces ({@code @Advice.This}, {@code
 * Argument}, {@code FieldValue}, {@code Return}, {@code Thrown}, {@code Enter}, {@code Origin}).
 */
public sealed interface HookArg {

  /** The woven method's receiver; not in static methods. */
  HookArg THIS = new This();

  /** What the method returns; exit hooks only (its type's default when it threw or was skipped). */
  HookArg RETURNED = new Returned();

  /** What the method threw, or null; exit hooks only. */
  HookArg THROWN = new Thrown();

  /** What the enter hook returned; exit hooks only. */
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

  /** See {@link #RETURNED}. */
  record Returned() implements HookArg {}

  /** See {@link #THROWN}. */
  record Thrown() implements HookArg {}

  /** See {@link #ENTERED}. */
  record Entered() implements HookArg {}

  /** See {@link #ORIGIN_TYPE}. */
  record OriginType() implements HookArg {}

  /** See {@link #ORIGIN_METHOD}. */
  record OriginMethod() implements HookArg {}
}
