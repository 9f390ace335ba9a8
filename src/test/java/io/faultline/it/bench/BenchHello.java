package io.faultline.it.bench;

/**
 * The hello-world of {@link StartupBenchmark}. With an argument {@code N}, then waits N ms (so an
 * agent's start-up on its own threads is done), collects garbage and prints {@code
 * heap-used=<bytes>} and {@code paused-ms=<the time that took>}, which the harness subtracts from
 * the wall time.
 */
public final class BenchHello {

  private BenchHello() {}

  /** See the class comment. */
  public static void main(String[] args) throws InterruptedException {
    System.out.println("hello");
    if (args.length > 0) {
      long start = System.nanoTime();
      Thread.sleep(Long.parseLong(args[0]));
      long heap = HeapAfterGc.bytes();
      System.out.println("heap-used=" + heap);
      System.out.println("paused-ms=" + (System.nanoTime() - start) / 1_000_000);
    }
  }
}
