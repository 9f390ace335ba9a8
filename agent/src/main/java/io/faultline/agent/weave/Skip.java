package io.faultline.agent.weave;

/**
 * When the value the enter hook returned skips the woven method's body: the method then returns its
 * type's default value, and the exit hook, if any, still runs (as Byte Buddy's {@code skipOn}).
 */
public sealed interface Skip {

  /** The body always runs. */
  Skip NEVER = new Never();

  /** Skip when the enter hook returned anything but false, 0 or null. */
  Skip ON_NON_DEFAULT = new OnNonDefault();

  /** Skip when the enter hook returned an instance of {@code internalName}. */
  static Skip onInstanceOf(String internalName) {
    return new OnInstanceOf(internalName);
  }

  /** See {@link #NEVER}. */
  record Never() implements Skip {}

  /** See {@link #ON_NON_DEFAULT}. */
  record OnNonDefault() implements Skip {}

  /** See {@link #onInstanceOf}. */
  record OnInstanceOf(String internalName) implements Skip {
    /** Rejects a binary name. */
    public OnInstanceOf {
      if (internalName == null || internalName.isEmpty() || internalName.indexOf('.') >= 0) {
        throw new IllegalArgumentException(
            "skip type '" + internalName + "' must be an internal name, e.g. a/b/SkipCall");
      }
    }
  }
}
