package io.faultline.it.bench;

/**
 * The hello-world of {@link StartupBenchmark}. With an argument {@code N}, waits N ms (so an
 * agent's start-up on its own threads is done), collects garbage and prints {@code
 * heap-used=<bytes>}.
 */
public final class BenchHello {

  private BenchHello() {}

  /** See the class comment. */
  public static void main(String[] args) throws InterruptedException {
    System.out.println("hello");
    if (args.length > 0) {
      Thread.sleep(Long.parseLong(args[0]));
      System.out.println("heap-used=" + HeapAfterGc.bytes());
    }
  }
}
