package io.faultline.agent.bench;

/**
 * The hello-world of {@link StartupCostBenchmark}. With an argument {@code N}, waits N ms (so the
 * agent's start-up on its own thread is done), collects garbage and prints {@code
 * heap-used=<bytes>}.
 */
public final class HelloHeap {

  private HelloHeap() {}

  /** See the class comment. */
  public static void main(String[] args) throws InterruptedException {
    System.out.println("hello");
    if (args.length > 0) {
      Thread.sleep(Long.parseLong(args[0]));
      Runtime rt = Runtime.getRuntime();
      for (int i = 0; i < 3; i++) {
        System.gc();
        Thread.sleep(50);
      }
      System.out.println("heap-used=" + (rt.totalMemory() - rt.freeMemory()));
    }
  }
}
