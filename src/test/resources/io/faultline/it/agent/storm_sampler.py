"""The reconnect-storm lab's 10 ms sampler (see StormSampler.java), a process of its own.

A sampler inside the test JVM stalls whenever that JVM's GC threads wait for a core on a loaded
machine; this one has no such threads and asks for SCHED_FIFO. Samples a broker namespace's TCP
counters and the clients' established connections to the broker until a line arrives on standard
input, then prints "realtime 0|1" and one line per sample (after a "started" line once the
first sample is taken):
CLOCK_MONOTONIC ns, PassiveOpens, SyncookiesSent, ListenOverflows, ListenDrops, established.

The established count comes from the whole /proc/net/tcp of this namespace (every client socket
on the host): reading and parsing it took most of a core at 100 Hz, a core that, under SCHED_FIFO,
the brokers and clients being measured then did not have. It is read every tenth sample (100 ms)
and repeated in between; the namespace counters stay at 10 ms.

Arguments: snmp file, netstat file, broker IPv4 address, broker port.
"""
import os
import select
import sys
import time

ESTABLISHED_EVERY = 10  # samples: the established count is read every 100 ms


def counters(path, group, names):
    with open(path) as f:
        lines = f.read().splitlines()
    for header, values in zip(lines, lines[1:]):
        if header.startswith(group) and values.startswith(group):
            index = dict(zip(header.split(), values.split()))
            return [int(index[n]) for n in names]
    raise SystemExit("no %s counters in %s" % (group, path))


def main():
    snmp, netstat, ip, port = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(50))
        realtime = 1
    except (OSError, AttributeError):
        realtime = 0
    word = int.from_bytes(bytes(int(x) for x in ip.split(".")), "little")
    remote4 = "%08X:%04X" % (word, port)
    remote6 = "0000000000000000FFFF0000" + remote4  # ::ffff:a.b.c.d, four host-order words

    def established():
        count = 0
        for table, remote in (("/proc/net/tcp", remote4), ("/proc/net/tcp6", remote6)):
            try:
                with open(table) as f:
                    next(f)
                    for line in f:
                        fields = line.split(None, 4)
                        if fields[2] == remote and fields[3] == "01":
                            count += 1
            except FileNotFoundError:
                pass
        return count

    samples = []
    due = time.monotonic_ns()
    started = False
    tick = 0
    connected = 0
    while True:
        due += 10_000_000
        at = time.monotonic_ns()
        opens = counters(snmp, "Tcp:", ["PassiveOpens"])
        ext = counters(netstat, "TcpExt:", ["SyncookiesSent", "ListenOverflows", "ListenDrops"])
        if tick % ESTABLISHED_EVERY == 0:
            connected = established()
        tick += 1
        samples.append((at, opens[0], ext[0], ext[1], ext[2], connected))
        if not started:  # the caller waits for this: python3 may take seconds to start
            started = True
            sys.stdout.write("started\n")
            sys.stdout.flush()
        if select.select([sys.stdin], [], [], 0)[0]:
            break
        wait = due - time.monotonic_ns()
        if wait > 0:
            time.sleep(wait / 1e9)
        else:
            due = time.monotonic_ns()  # fell behind: no catch-up burst
    out = ["realtime %d" % realtime]
    out.extend(" ".join(str(v) for v in s) for s in samples)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
