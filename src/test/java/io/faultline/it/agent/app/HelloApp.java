package io.faultline.it.agent.app;

/** The smallest application: proves {@code main} ran. */
public final class HelloApp {

  private HelloApp() {}

  /** Prints {@code main ran}. */
  public static void main(String[] args) {
    System.out.println("main ran");
  }
}
