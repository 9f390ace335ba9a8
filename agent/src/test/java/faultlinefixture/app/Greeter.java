package faultlinefixture.app;

/**
 * A stand-in for a library class the fixture modules instrument (outside io.faultline on purpose).
 */
public final class Greeter {

  /** Woven by the greeter fixture module, which appends " [woven]". */
  public String greet(String name) {
    return "hello " + name;
  }

  /** Targeted by advice written for another signature (a String argument): the weave fails. */
  public int count(int n) {
    return n + 1;
  }

  /** Woven with advice that always throws: the application must not notice. */
  public String shout(String text) {
    return text.toUpperCase(java.util.Locale.ROOT);
  }
}
