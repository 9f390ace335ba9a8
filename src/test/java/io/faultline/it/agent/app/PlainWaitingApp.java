package io.faultline.it.agent.app;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** An application that knows nothing of Faultline: prints {@code ready}, waits for a line. */
public final class PlainWaitingApp {

  private PlainWaitingApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    System.out.println("ready");
    System.out.flush();
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    System.out.println("bye");
  }
}
