package io.faultline.agent.weave;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The annotations of an advice class, read from its class file by {@link AdviceReader} and never
 * loaded. They mirror Byte Buddy's {@code @Advice} annotations, with the same meaning, for the
 * subset the agent uses: an advice class has a public static {@link OnMethodEnter} method, a public
 * static {@link OnMethodExit} method, or both, and each of their parameters carries exactly one of
 * the parameter annotations below. The methods' code is copied into the woven method (inlined), so
 * it runs in the woven class's loader and may use the library's types; it may call only public
 * members of other classes (not its own class's private helpers, not lambdas).
 */
public final class Advice {

  private Advice() {}

  /** The method runs before the woven method's body; what it returns is kept for the exit. */
  @Retention(RetentionPolicy.CLASS)
  @Target(ElementType.METHOD)
  public @interface OnMethodEnter {
    /** Must be {@code Throwable}: every advice's failure is handed to the agent, never thrown. */
    Class<? extends Throwable> suppress() default Throwable.class;

    /**
     * Skip the body when the returned value is an instance of this type, or, with {@link
     * OnNonDefaultValue}, anything but false, 0 or null; {@code void} never skips.
     */
    Class<?> skipOn() default void.class;
  }

  /** The method runs after the woven method's body returned (or was skipped). */
  @Retention(RetentionPolicy.CLASS)
  @Target(ElementType.METHOD)
  public @interface OnMethodExit {
    /** Must be {@code Throwable}: every advice's failure is handed to the agent, never thrown. */
    Class<? extends Throwable> suppress() default Throwable.class;

    /** {@code Throwable}: also after the body threw; {@code void}: only after it returned. */
    Class<?> onThrowable() default void.class;
  }

  /** {@link OnMethodEnter#skipOn()}: skip on any value but false, 0 or null. */
  public static final class OnNonDefaultValue {
    private OnNonDefaultValue() {}
  }

  /** The woven method's receiver. */
  @Retention(RetentionPolicy.CLASS)
  @Target(ElementType.PARAMETER)
  public @interface This {}

  /**
   * The woven method's parameter {@link #value()} (from 0), as it is when the advice runs; with
   * {@code readOnly = false} what an enter advice assigns is what the method's body sees.
   */
  @Retention(RetentionPolicy.CLASS)
  @Target(ElementType.PARAMETER)
  public @interface Argument {
    /** The parameter's index. */
    int value();

    /** False (enter advice only): the advice's assignment replaces the argument. */
    boolean readOnly() default true;
  }

  /** The instance field {@link #value()} the woven class declares, read from the receiver. */
  @Retention(RetentionPolicy.CLASS)
  @Target(ElementType.PARAMETER)
  public @interface FieldValue {
    /** The field's name. */
    String value();
  }

  /**
   * Exit only: what the woven method returns (its type's default after a throw or a skip); with
   * {@code readOnly = false} what the advice assigns is returned instead.
   */
  @Retention(RetentionPolicy.CLASS)
  @Target(ElementType.PARAMETER)
  public @interface Return {
    /** False: the advice's assignment replaces the return value. */
    boolean readOnly() default true;
  }

  /**
   * Exit only: what the woven method threw, or null; with {@code readOnly = false} what the advice
   * assigns is thrown instead (null: the method returns).
   */
  @Retention(RetentionPolicy.CLASS)
  @Target(ElementType.PARAMETER)
  public @interface Thrown {
    /** False: the advice's assignment replaces what is thrown. */
    boolean readOnly() default true;
  }

  /** Exit only: what the enter advice returned. */
  @Retention(RetentionPolicy.CLASS)
  @Target(ElementType.PARAMETER)
  public @interface Enter {}

  /**
   * The woven class ({@code Class} parameter, empty value) or its method's name and descriptor
   * ({@code String} parameter, value {@code "#m#d"}).
   */
  @Retention(RetentionPolicy.CLASS)
  @Target(ElementType.PARAMETER)
  public @interface Origin {
    /** Empty for the class, {@code "#m#d"} for the method. */
    String value() default "";
  }
}
