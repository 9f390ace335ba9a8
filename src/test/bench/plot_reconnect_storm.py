#!/usr/bin/env python3
"""Plots the reconnect-storm lab's per-10 ms series (ReconnectStormLab's series.csv).

Usage: plot_reconnect_storm.py SERIES_CSV OUT_PNG [TITLE]

Top: new connections the restarted broker accepted per 10 ms after the preferred leader election,
gate off and on. Bottom: the clients' established connections to that broker.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    series = {"off": ([], [], []), "on": ([], [], [])}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            t, new, est = series[row["gate"]]
            t.append(float(row["t_ms"]) / 1000.0)
            new.append(int(row["new_connections"]))
            est.append(int(row["established"]))
    return series


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    series = read(sys.argv[1])
    title = sys.argv[3] if len(sys.argv) > 3 else "Reconnects after a preferred leader election"
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 6.5), sharex=True,
                                      gridspec_kw={"height_ratios": [3, 2]})
    styles = {"off": ("#d62728", "gate off (kafka.stagger=false)"),
              "on": ("#1f77b4", "gate on (kafka.stagger.window=3s)")}
    for gate in ("off", "on"):
        t, new, est = series[gate]
        color, label = styles[gate]
        top.step(t, new, where="post", color=color, label=label, linewidth=1.2)
        bottom.plot(t, est, color=color, label=label, linewidth=1.5)
    top.set_ylabel("new connections per 10 ms")
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
