/*
 * The delivery sampler's two reads of a connected TCP socket, as plain JNI functions: a fraction of
 * what JNA's direct mapping adds to the system call (docs/benchmarks.md has the figures).
 * Bound to io.faultline.core.net.JniSocketCalls under both of its names: as built, and as the agent
 * jar relocates it (io.faultline.shaded.core.net).
 */
#include <jni.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/sockios.h>
#include <linux/tcp.h>

/* Bumped whenever a function's signature changes: the Java side refuses a library of another. */
#define FAULTLINE_NET_ABI 1

static jint output_queue(jint fd) {
  int queued;
  if (ioctl(fd, SIOCOUTQ, &queued) != 0) {
    return -1;
  }
  return queued;
}

static jlong bytes_acked(jint fd) {
  struct tcp_info info;
  socklen_t wanted = offsetof(struct tcp_info, tcpi_bytes_acked) + sizeof(info.tcpi_bytes_acked);
  socklen_t length = wanted;
  if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) != 0 || length < wanted) {
    return -1; /* a closed descriptor, not TCP, or a kernel before 4.1 */
  }
  return (jlong) info.tcpi_bytes_acked;
}

#define BIND(prefix)                                                                        \
  JNIEXPORT jint JNICALL prefix##_abi(JNIEnv *env, jclass type) { return FAULTLINE_NET_ABI; } \
  JNIEXPORT jint JNICALL prefix##_outputQueue(JNIEnv *env, jclass type, jint fd) {          \
    return output_queue(fd);                                                                \
  }                                                                                         \
  JNIEXPORT jlong JNICALL prefix##_bytesAcked(JNIEnv *env, jclass type, jint fd) {          \
    return bytes_acked(fd);                                                                 \
  }

BIND(Java_io_faultline_core_net_JniSocketCalls)
BIND(Java_io_faultline_shaded_core_net_JniSocketCalls)
