package io.faultline.agent.weave;

/**
 * Where the woven code hands what a hook threw: {@code owner.name(Throwable, String)} with the
 * module's name, as {@code AgentErrors.suppressed}. The woven class's loader must see {@code
 * owner}; if it does not, the error is dropped.
 *
 * @param owner internal name of the class declaring the handler
 * @param name the handler's name; its descriptor is {@code
 *     (Ljava/lang/Throwable;Ljava/lang/String;)V}
 * @param module passed as the second argument
 */
public record ErrorHook(String owner, String name, String module) {

  static final String DESCRIPTOR = "(Ljava/lang/Throwable;Ljava/lang/String;)V";

  /** Rejects a binary name or a missing part. */
  public ErrorHook {
    if (owner == null || owner.isEmpty() || owner.indexOf('.') >= 0) {
      throw new IllegalArgumentException(
          "error hook owner '" + owner + "' must be an internal name");
    }
    if (name == null || name.isEmpty() || module == null) {
      throw new IllegalArgumentException("an error hook needs a method name and a module");
    }
  }
}
