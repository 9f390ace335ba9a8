package example.startup;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Shape (g): an application already running with kafka-clients and jOOQ loaded and used when the
 * agent is attached to it ({@code agentmain}). It does the work once and prints {@code warm}; each
 * {@code work} line on standard input runs it again (new producer, new transactions) and prints
 * {@code done late-attach <n>}; {@code stop} ends it. Arguments: see {@link ShapeWork}.
 */
public final class LateAttachApp {

  private LateAttachApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    ShapeWork.produce(args[0], args[1], null);
    ShapeWork.nestedTransaction(args[2], args[3], args[4], args[5]);
    System.out.println("warm");
    System.out.flush();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    int round = 0;
    for (String line = in.readLine(); line != null && !line.equals("stop"); line = in.readLine()) {
      round++;
      ShapeWork.produce(args[0], args[1], null);
      ShapeWork.nestedTransaction(args[2], args[3], args[4], args[5]);
      System.out.println("done late-attach " + round);
      System.out.flush();
    }
    System.out.println("bye");
  }
}
