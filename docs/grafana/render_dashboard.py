#!/usr/bin/env python3
"""Draws docs/grafana/faultline-dashboard.json from recorded Prometheus scrapes, without Grafana.

Input: a directory of scrapes, DIR/<epoch-millis>.prom (Prometheus text format, one a second), as
written by `./demo --record-metrics DIR` or by DashboardRecordingTest. Every panel query is
evaluated at every scrape's time with a small PromQL subset (the one the dashboard uses):
selectors with =, !=, =~, !~ matchers; rate() and increase() over a range; sum, min, max, avg,
count with `by (...)`; and the binary operators / * + - between vectors (matched on equal label
sets) or with a number. `$instance` is read as `.*`.

Usage: python3 docs/grafana/render_dashboard.py DIR [OUT.png] [--dashboard JSON]
Needs matplotlib (pip install matplotlib).
"""

import argparse
import json
import math
import re
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, MaxNLocator  # noqa: E402
from datetime import datetime, timezone  # noqa: E402

HERE = Path(__file__).resolve().parent

# ---------------------------------------------------------------------------------------------
# Scrapes


def parse_labels(text):
    """Parses the inside of {a="x",b="y"} (with Prometheus escapes) into a dict."""
    labels, i = {}, 0
    while i < len(text):
        m = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"').match(text, i)
        if not m:
            break
        key, i, value = m.group(1), m.end(), []
        while text[i] != '"':
            if text[i] == "\\":
                i += 1
                value.append({"n": "\n"}.get(text[i], text[i]))
            else:
                value.append(text[i])
            i += 1
        labels[key] = "".join(value)
        i += 1
        while i < len(text) and text[i] in ", ":
            i += 1
    return labels


def parse_scrape(text):
    """{(name, frozenset(labels)): value} of one Prometheus text scrape."""
    samples = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        if "{" in line:
            name, rest = line.split("{", 1)
            body, tail = rest.rsplit("}", 1)
            labels = parse_labels(body)
        else:
            name, tail = line.split(" ", 1)
            labels = {}
        value = tail.split()[0]
        try:
            samples[(name, frozenset(labels.items()))] = float(value)
        except ValueError:
            continue
    return samples


def load_scrapes(directory):
    files = sorted(Path(directory).glob("*.prom"), key=lambda p: int(p.stem))
    if len(files) < 2:
        sys.exit(f"{directory}: need at least two <epoch-millis>.prom scrapes, found {len(files)}")
    return [(int(f.stem) / 1000.0, parse_scrape(f.read_text(encoding="utf-8"))) for f in files]


# ---------------------------------------------------------------------------------------------
# The PromQL subset

TOKEN = re.compile(
    r'\s*(?:(?P<num>\d+(?:\.\d+)?)(?![a-zA-Z_])|(?P<dur>\[\d+[smh]\])|(?P<str>"(?:[^"\\]|\\.)*")'
    r"|(?P<op>=~|!~|!=|[=(){},/*+-])|(?P<id>[A-Za-z_:][A-Za-z0-9_:]*))"
)
AGGREGATIONS = {"sum", "min", "max", "avg", "count"}
RANGE_FUNCTIONS = {"rate", "increase"}
QUANTILE = "histogram_quantile"


def tokenize(expr):
    tokens, i = [], 0
    expr = expr.strip()
    while i < len(expr):
        m = TOKEN.match(expr, i)
        if not m or m.end() == i:
            raise ValueError(f"cannot read {expr[i:]!r} in {expr!r}")
        kind = m.lastgroup
        tokens.append((kind, m.group(kind)))
        i = m.end()
        while i < len(expr) and expr[i].isspace():
            i += 1
    return tokens


class Parser:
    """Recursive descent over the tokens; builds a tuple tree."""

    def __init__(self, expr):
        self.tokens, self.i, self.expr = tokenize(expr), 0, expr

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else (None, None)

    def take(self, value=None):
        kind, text = self.peek()
        if value is not None and text != value:
            raise ValueError(f"expected {value!r}, got {text!r} in {self.expr!r}")
        self.i += 1
        return kind, text

    def parse(self):
        node = self.binary(0)
        if self.i != len(self.tokens):
            raise ValueError(f"unexpected {self.peek()[1]!r} in {self.expr!r}")
        return node

    def binary(self, level):
        ops = [("+", "-"), ("*", "/")]
        if level == len(ops):
            return self.unary()
        node = self.binary(level + 1)
        while self.peek()[1] in ops[level]:
            _, op = self.take()
            node = ("bin", op, node, self.binary(level + 1))
        return node

    def unary(self):
        kind, text = self.peek()
        if kind == "num":
            self.take()
            return ("num", float(text))
        if text == "(":
            self.take("(")
            node = self.binary(0)
            self.take(")")
            return node
        if kind == "id" and text in AGGREGATIONS:
            self.take()
            by = self.grouping()
            self.take("(")
            inner = self.binary(0)
            self.take(")")
            if by is None:
                by = self.grouping()
            return ("agg", text, by, inner)
        if kind == "id" and text == QUANTILE:
            self.take()
            self.take("(")
            kind, q = self.take()
            if kind != "num":
                raise ValueError(f"{text}() needs a number first in {self.expr!r}")
            self.take(",")
            inner = self.binary(0)
            self.take(")")
            return ("quantile", float(q), inner)
        if kind == "id" and text in RANGE_FUNCTIONS:
            self.take()
            self.take("(")
            selector = self.selector()
            kind, dur = self.take()
            if kind != "dur":
                raise ValueError(f"{text}() needs a range like [1m] in {self.expr!r}")
            self.take(")")
            seconds = int(dur[1:-2]) * {"s": 1, "m": 60, "h": 3600}[dur[-2]]
            return ("range", text, selector, seconds)
        return self.selector()

    def grouping(self):
        if self.peek()[1] != "by":
            return None
        self.take("by")
        self.take("(")
        labels = []
        while self.peek()[1] != ")":
            labels.append(self.take()[1])
            if self.peek()[1] == ",":
                self.take(",")
        self.take(")")
        return tuple(labels)

    def selector(self):
        kind, name = self.take()
        if kind != "id":
            raise ValueError(f"expected a metric name, got {name!r} in {self.expr!r}")
        matchers = []
        if self.peek()[1] == "{":
            self.take("{")
            while self.peek()[1] != "}":
                label = self.take()[1]
                op = self.take()[1]
                value = json.loads(self.take()[1])
                matchers.append((label, op, value))
                if self.peek()[1] == ",":
                    self.take(",")
            self.take("}")
        return ("sel", name, tuple(matchers))


def matches(labels, matchers):
    for label, op, value in matchers:
        actual = labels.get(label, "")
        if op == "=" and actual != value:
            return False
        if op == "!=" and actual == value:
            return False
        if op == "=~" and not re.fullmatch(value, actual):
            return False
        if op == "!~" and re.fullmatch(value, actual):
            return False
    return True


class Evaluator:
    """Evaluates a parsed query at one scrape index; a vector is {frozenset(labels): value}."""

    def __init__(self, scrapes):
        self.scrapes = scrapes

    def at(self, node, index):
        kind = node[0]
        if kind == "num":
            return node[1]
        if kind == "sel":
            return self.select(node, index)
        if kind == "range":
            return self.range(node, index)
        if kind == "agg":
            return self.aggregate(node, index)
        if kind == "bin":
            return self.binary(node, index)
        if kind == "quantile":
            return self.quantile(node, index)
        raise ValueError(kind)

    def quantile(self, node, index):
        """Prometheus's histogram_quantile over classic buckets (the le label): the bucket holding
        the rank, linearly interpolated; the highest finite bound when it falls in +Inf."""
        _, q, inner = node
        groups = {}
        for labels, value in self.at(inner, index).items():
            rest = frozenset((k, v) for k, v in labels if k != "le")
            le = dict(labels).get("le")
            if le is not None:
                groups.setdefault(rest, []).append((float(le), value))
        out = {}
        for rest, buckets in groups.items():
            buckets.sort()
            total = buckets[-1][1]
            if buckets[-1][0] != math.inf or total <= 0 or math.isnan(total):
                out[rest] = math.nan
                continue
            rank = q * total
            lower, below = 0.0, 0.0
            for upper, count in buckets:
                if count >= rank:
                    if upper == math.inf:
                        out[rest] = lower
                    elif count == below:
                        out[rest] = upper
                    else:
                        out[rest] = lower + (upper - lower) * (rank - below) / (count - below)
                    break
                lower, below = upper, count
        return out

    def select(self, node, index):
        _, name, matchers = node
        out = {}
        for (metric, labels), value in self.scrapes[index][1].items():
            if metric == name and matches(dict(labels), matchers):
                out[labels] = value
        return out

    def range(self, node, index):
        _, function, selector, seconds = node
        now = self.scrapes[index][0]
        window = [i for i in range(index + 1) if self.scrapes[i][0] > now - seconds]
        if len(window) < 2:
            return {}
        series = {}
        for i in window:
            for labels, value in self.select(selector, i).items():
                series.setdefault(labels, []).append((self.scrapes[i][0], value))
        out = {}
        for labels, points in series.items():
            if len(points) < 2:
                continue
            delta = 0.0
            for (_, a), (_, b) in zip(points, points[1:]):
                delta += b - a if b >= a else b  # a counter reset starts again from zero
            increase = extrapolate(delta, points, now - seconds, now)
            out[labels] = increase / seconds if function == "rate" else increase
        return out

    def aggregate(self, node, index):
        _, op, by, inner = node
        vector = self.at(inner, index)
        groups = {}
        for labels, value in vector.items():
            key = frozenset((k, v) for k, v in labels if by and k in by)
            groups.setdefault(key, []).append(value)
        out = {}
        for key, values in groups.items():
            values = [v for v in values if not math.isnan(v)] or [math.nan]
            out[key] = {
                "sum": sum,
                "min": min,
                "max": max,
                "avg": lambda v: sum(v) / len(v),
                "count": len,
            }[op](values)
        return out

    def binary(self, node, index):
        _, op, left_node, right_node = node
        left, right = self.at(left_node, index), self.at(right_node, index)
        apply = {
            "+": lambda a, b: a + b,
            "-": lambda a, b: a - b,
            "*": lambda a, b: a * b,
            "/": lambda a, b: a / b if b != 0 else math.nan,
        }[op]
        if isinstance(left, float) and isinstance(right, float):
            return apply(left, right)
        if isinstance(right, float):
            return {k: apply(v, right) for k, v in left.items()}
        if isinstance(left, float):
            return {k: apply(left, v) for k, v in right.items()}
        return {k: apply(v, right[k]) for k, v in left.items() if k in right}


def extrapolate(delta, points, start, end):
    """Prometheus's extrapolation of a counter's increase to the range [start, end]: to the range's
    edges when samples reach near them, by half a sample interval otherwise, never below zero."""
    sampled = points[-1][0] - points[0][0]
    if sampled <= 0:
        return 0.0
    average = sampled / (len(points) - 1)
    to_start, to_end = points[0][0] - start, end - points[-1][0]
    if to_start >= average * 1.1:
        to_start = average / 2
    if delta > 0 and points[0][1] >= 0:
        to_start = min(to_start, sampled * (points[0][1] / delta))  # a counter starts at zero
    if to_end >= average * 1.1:
        to_end = average / 2
    return delta * (sampled + to_start + to_end) / sampled


def query_series(expr, scrapes):
    """{legend labels: ([times], [values])} of expr over every scrape."""
    tree = Parser(expr.replace("$instance", ".*")).parse()
    evaluator = Evaluator(scrapes)
    series = {}
    for index, (t, _) in enumerate(scrapes):
        result = evaluator.at(tree, index)
        if isinstance(result, float):
            result = {frozenset(): result}
        for labels, value in result.items():
            times, values = series.setdefault(labels, ([], []))
            times.append(t)
            values.append(value)
    return series


# ---------------------------------------------------------------------------------------------
# Drawing

BACKGROUND, PANEL, GRID, TEXT, MUTED = "#111217", "#181b1f", "#2c3235", "#ccccdc", "#8e8e9e"
PALETTE = ["#73bf69", "#f2cc0c", "#8ab8ff", "#ff780a", "#f2495c", "#5794f2", "#b877d9",
           "#fade2a", "#37872d", "#c4162a", "#1f60c4", "#8f3bb8", "#ff9830", "#96d98d"]


def human(value, unit):
    if value is None or math.isnan(value):
        return "NaN"
    if unit == "s":
        a = abs(value)
        if a == 0:
            return "0 s"
        if a < 1e-3:
            return f"{value * 1e6:.0f} µs"
        if a < 1:
            return f"{value * 1e3:.3g} ms"
        return f"{value:.3g} s"
    if unit in ("bytes", "Bps"):
        suffix = "/s" if unit == "Bps" else ""
        for factor, name in ((2**30, "GiB"), (2**20, "MiB"), (2**10, "KiB")):
            if abs(value) >= factor:
                return f"{value / factor:.3g} {name}{suffix}"
        return f"{value:.0f} B{suffix}"
    if unit == "percentunit":
        return f"{value * 100:.0f}%"
    if unit in ("ops", "cps"):
        return f"{value:.3g}/s"
    if abs(value) >= 1000:
        return f"{value / 1000:.3g}K"
    return f"{value:.3g}"


def legend(fmt, labels):
    labels = dict(labels)
    text = re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: labels.get(m.group(1), ""), fmt or "")
    return text or (", ".join(f"{k}={v}" for k, v in sorted(labels.items())) or "value")


def draw_timeseries(ax, panel, scrapes):
    unit = panel.get("fieldConfig", {}).get("defaults", {}).get("unit", "short")
    drawn = 0
    for target in panel["targets"]:
        for labels, (times, values) in sorted(
            query_series(target["expr"], scrapes).items(), key=lambda kv: sorted(kv[0])
        ):
            if all(math.isnan(v) for v in values):
                continue
            xs = [datetime.fromtimestamp(t, tz=timezone.utc) for t in times]
            color = PALETTE[drawn % len(PALETTE)]
            ax.plot(xs, values, color=color, linewidth=1.2, label=legend(target.get("legendFormat"), labels))
            ax.fill_between(xs, values, color=color, alpha=0.08)
            drawn += 1
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: human(v, unit)))
    ax.yaxis.set_major_locator(MaxNLocator(4))
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%H:%M:%S"))
    ax.xaxis.set_major_locator(MaxNLocator(4))
    ax.grid(color=GRID, linewidth=0.5)
    # One time range for every panel, as in Grafana, whenever a series starts.
    ax.set_xlim(datetime.fromtimestamp(scrapes[0][0], tz=timezone.utc),
                datetime.fromtimestamp(scrapes[-1][0], tz=timezone.utc))
    if drawn == 0:
        ax.text(0.5, 0.5, "No data", color=MUTED, ha="center", va="center", transform=ax.transAxes)
    else:
        handles, names = ax.get_legend_handles_labels()
        keep = min(len(names), 6)
        ax.legend(handles[:keep], names[:keep], loc="upper left",
                  fontsize=6, frameon=False, labelcolor=TEXT, ncol=2 if keep > 3 else 1)
        if keep < len(names):
            ax.text(1.0, 1.01, f"+{len(names) - keep} more series", color=MUTED, fontsize=6,
                    ha="right", va="bottom", transform=ax.transAxes)
    return drawn


def draw_bargauge(ax, panel, scrapes):
    unit = panel.get("fieldConfig", {}).get("defaults", {}).get("unit", "short")
    bars = []
    for target in panel["targets"]:
        for labels, (_, values) in query_series(target["expr"], scrapes).items():
            if values and not math.isnan(values[-1]) and values[-1] > 0:
                bars.append((legend(target.get("legendFormat"), labels), values[-1]))
    bars.sort(key=lambda b: (-b[1], b[0]))
    if not bars:
        ax.text(0.5, 0.5, "No active findings", color=MUTED, ha="center", va="center",
                transform=ax.transAxes)
        ax.set_axis_off()
        return 0
    bars = bars[:12]
    names = [b[0] for b in bars][::-1]
    values = [b[1] for b in bars][::-1]
    ax.barh(names, values, color="#f2495c", height=0.6)
    for i, v in enumerate(values):
        ax.text(v, i, " " + human(v, unit), color=TEXT, va="center", fontsize=7)
    ax.tick_params(axis="y", labelsize=7)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(axis="x", color=GRID, linewidth=0.5)
    return len(bars)


def render(dashboard, scrapes, out):
    panels = dashboard["panels"]
    rows = max(p["gridPos"]["y"] + p["gridPos"]["h"] for p in panels)
    unit_w, unit_h = 0.75, 0.36  # inches per grid column and per grid row (Grafana: 30 px rows)
    fig = plt.figure(figsize=(24 * unit_w, rows * unit_h + 0.8), facecolor=BACKGROUND)
    height = rows * unit_h + 0.8
    first = datetime.fromtimestamp(scrapes[0][0], tz=timezone.utc)
    fig.text(0.01, 1 - 0.35 / height, f"{dashboard['title']}  ·  {len(scrapes)} scrapes from "
             f"{first:%Y-%m-%d %H:%M:%S} UTC, {scrapes[-1][0] - scrapes[0][0]:.0f} s",
             color=TEXT, fontsize=13, va="center")

    def box(g, pad_top=0.28):
        left = g["x"] / 24
        width = g["w"] / 24
        top = 1 - (0.8 + g["y"] * unit_h) / height
        h = g["h"] * unit_h / height
        return left, top - h, width, h

    for panel in panels:
        g = panel["gridPos"]
        left, bottom, width, h = box(g)
        if panel["type"] == "row":
            fig.text(left + 0.005, bottom + h / 2, panel["title"], color=TEXT, fontsize=11,
                     fontweight="bold", va="center")
            continue
        frame = fig.add_axes([left + 0.003, bottom + 0.003, width - 0.006, h - 0.006])
        frame.set_facecolor(PANEL)
        frame.set_xticks([])
        frame.set_yticks([])
        for spine in frame.spines.values():
            spine.set_color(GRID)
        frame.text(0.015, 0.97, panel["title"], color=TEXT, fontsize=8.5, va="top",
                   transform=frame.transAxes)
        inner_left = left + (0.05 if panel["type"] == "bargauge" else 0.035) * (1 if width > 0.3 else 1.6)
        if panel["type"] == "bargauge":
            inner_left = left + width * 0.42
        ax = fig.add_axes([inner_left, bottom + h * 0.14, left + width - inner_left - 0.008, h * 0.68])
        ax.set_facecolor(PANEL)
        for spine in ax.spines.values():
            spine.set_visible(False)
        ax.tick_params(colors=MUTED, labelsize=6.5, length=0)
        if panel["type"] == "bargauge":
            draw_bargauge(ax, panel, scrapes)
        else:
            draw_timeseries(ax, panel, scrapes)
    fig.savefig(out, dpi=90, facecolor=BACKGROUND)
    print(f"wrote {out} ({len(scrapes)} scrapes, {len(panels)} panels)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scrapes", help="directory of <epoch-millis>.prom files")
    parser.add_argument("out", nargs="?", default=str(HERE / "dashboard.png"))
    parser.add_argument("--dashboard", default=str(HERE / "faultline-dashboard.json"))
    args = parser.parse_args()
    dashboard = json.loads(Path(args.dashboard).read_text(encoding="utf-8"))
    render(dashboard, load_scrapes(args.scrapes), args.out)


if __name__ == "__main__":
    main()
