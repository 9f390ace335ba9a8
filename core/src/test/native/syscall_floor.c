/*
 * The kernel's own cost of the two reads the delivery sampler and the connection monitor make,
 * called from C with nothing between: ioctl(SIOCOUTQ) and getsockopt(TCP_INFO) on a connected
 * loopback socket, the same as TcpInfoSampleBenchmark's. What a JVM route (JNA, the Foreign
 * Function & Memory API) measures above these figures is the route's; what these figures take is
 * the host's (its CPU, its kernel, its mitigations), and no route gets below them.
 *
 * Prints JMH's JSON shape (benchmark, primaryMetric score, scoreError, scoreUnit), so that
 * ./benchmarks reads it with JMH's results: the score is the median of 5 rounds of 1,000,000
 * calls, the error half the spread of the rounds.
 *
 *   cc -O2 -o syscall-floor core/src/test/native/syscall_floor.c && ./syscall-floor
 */
#include <arpa/inet.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define CALLS 1000000
#define ROUNDS 5

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int connected_socket(void) {
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int server = socket(AF_INET, SOCK_STREAM, 0);
  int client = socket(AF_INET, SOCK_STREAM, 0);
  if (server < 0 || client < 0 || bind(server, (struct sockaddr *)&a, sizeof a) != 0
      || listen(server, 1) != 0 || getsockname(server, (struct sockaddr *)&a, &len) != 0
      || connect(client, (struct sockaddr *)&a, sizeof a) != 0 || accept(server, NULL, NULL) < 0) {
    perror("syscall-floor: a loopback connection");
    exit(1);
  }
  return client;
}

static void report(const char *name, double rounds[ROUNDS], int last) {
  qsort(rounds, ROUNDS, sizeof rounds[0], by_value);
  printf("  {\"benchmark\" : \"native.SyscallFloor.%s\", \"primaryMetric\" : {\"score\" : %.1f,"
         " \"scoreError\" : %.1f, \"scoreUnit\" : \"ns/op\"}}%s\n",
         name, rounds[ROUNDS / 2], (rounds[ROUNDS - 1] - rounds[0]) / 2, last ? "" : ",");
}

int main(void) {
  int fd = connected_socket();
  struct tcp_info info;
  socklen_t len;
  int queued;
  double ioctl_ns[ROUNDS], getsockopt_ns[ROUNDS];
  for (int r = 0; r < ROUNDS; r++) {
    double start = now_ns();
    for (int i = 0; i < CALLS; i++) {
      if (ioctl(fd, SIOCOUTQ, &queued) != 0) {
        perror("syscall-floor: ioctl(SIOCOUTQ)");
        return 1;
      }
    }
    ioctl_ns[r] = (now_ns() - start) / CALLS;
    start = now_ns();
    for (int i = 0; i < CALLS; i++) {
      len = sizeof info;
      if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0) {
        perror("syscall-floor: getsockopt(TCP_INFO)");
        return 1;
      }
    }
    getsockopt_ns[r] = (now_ns() - start) / CALLS;
  }
  printf("[\n");
  report("ioctlSiocoutq", ioctl_ns, 0);
  report("getsockoptTcpInfo", getsockopt_ns, 1);
  printf("]\n");
  return 0;
}
