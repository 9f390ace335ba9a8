#!/usr/bin/env python3
"""Plots the reconnect-storm lab's per-10 ms series (ReconnectStormLab's series.csv).

Usage: plot_reconnect_storm.py SERIES_CSV OUT_PNG [TITLE] [WINDOW]

WINDOW is the run's kafka.stagger.window for the legend (default 3s, the default window).

Top: new connections the restarted broker accepted per 10 ms after the preferred leader election,
gate off and on, and (dotted) the handshakes its full listen queue dropped (ListenDrops): those
come back on the clients' SYN retransmission timers. Bottom: the clients' established connections
to that broker.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    series = {"off": ([], [], [], []), "on": ([], [], [], [])}
    last_drops = {"off": 0, "on": 0}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            gate = row["gate"]
            t, new, est, dropped = series[gate]
            t.append(float(row["t_ms"]) / 1000.0)
            new.append(int(row["new_connections"]))
            est.append(int(row["established"]))
            # The CSV has the cumulative count since the election; plot it per sample.
            drops = int(row["listen_drops"])
            dropped.append(max(0, drops - last_drops[gate]))
            last_drops[gate] = drops
    return series


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    series = read(sys.argv[1])
    title = sys.argv[3] if len(sys.argv) > 3 else "Reconnects after a preferred leader election"
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 6.5), sharex=True,
                                      gridspec_kw={"height_ratios": [3, 2]})
    window = sys.argv[4] if len(sys.argv) > 4 else "3s"
    styles = {"off": ("#d62728", "gate off (kafka.stagger=false)"),
              "on": ("#1f77b4", f"gate on (kafka.stagger.window={window})")}
    for gate in ("off", "on"):
        t, new, est, dropped = series[gate]
        color, label = styles[gate]
        top.step(t, new, where="post", color=color, label=label, linewidth=1.2)
        if any(dropped):
            top.step(t, dropped, where="post", color=color, linestyle=":", linewidth=1.0,
                     label=label.split(" (")[0] + ": handshakes dropped by the full queue")
        bottom.plot(t, est, color=color, label=label, linewidth=1.5)
    top.set_ylabel("per 10 ms")
    top.set_title(title)
    top.legend(loc="upper right")
    top.grid(alpha=0.3)
    bottom.set_ylabel("established client\nconnections to the broker")
    bottom.set_xlabel("seconds after the preferred leader election")
    bottom.grid(alpha=0.3)
    bottom.set_ylim(bottom=0)
    top.set_xlim(left=-0.5)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
