package io.faultline.agent.weave;

/** Methods of every shape the weaver must handle; woven copies are defined by the tests. */
public class WeaveTarget {

  String label = "plain";
  long total;

  public WeaveTarget() {}

  public WeaveTarget(String label) {
    if (label == null) {
      throw new IllegalArgumentException("no label");
    }
    this.label = label;
  }

  public int add(int a, int b) {
    return a + b;
  }

  public long addLong(long a, int b) {
    if (a < 0) {
      return -1;
    }
    total += a + b;
    return a + b;
  }

  public double half(double d) {
    return d / 2;
  }

  public void fail(String message) {
    throw new IllegalStateException(message);
  }

  public String caught(String s) {
    try {
      if (s == null) {
        throw new IllegalArgumentException("null");
      }
      return s;
    } catch (IllegalArgumentException e) {
      return "caught";
    }
  }

  public static int loopFromStart(int n) {
    while (n > 10) {
      n -= 3;
    }
    return n;
  }

  public Object sync(Object o) {
    synchronized (this) {
      if (o == null) {
        throw new IllegalStateException("null under the lock");
      }
      return o;
    }
  }

  public int switcher(int k) {
    switch (k) {
      case 1:
        return 10;
      case 2:
        return 20;
      default:
        return k;
    }
  }

  public boolean canConnect(String node, long now) {
    return true;
  }

  public long delay(String node, long now) {
    return 5;
  }

  public void count(int times) {
    for (int i = 0; i < times; i++) {
      total++;
    }
  }

  public synchronized long mixed(int a, long b, double c, String d, long e) {
    long sum = 0;
    for (int i = 0; i < a; i++) {
      for (long j = 0; j < 2; j++) {
        sum += j;
      }
    }
    return sum + b + (long) c + d.length() + e;
  }

  public int finallyCounts(boolean fail) {
    try {
      if (fail) {
        throw new IllegalStateException("in try");
      }
      return 1;
    } finally {
      total += 10;
    }
  }

  public String rethrows(String s) {
    try {
      try {
        return s.trim();
      } catch (NullPointerException e) {
        throw new IllegalArgumentException("wrapped", e);
      }
    } catch (IllegalArgumentException e) {
      if (s == null) {
        throw e;
      }
      return "never";
    }
  }
}
