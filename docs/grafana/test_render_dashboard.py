"""Checks of render_dashboard.py's PromQL subset against hand-computed values.

Run: python3 -m unittest docs/grafana/test_render_dashboard.py (needs matplotlib installed)
"""

import json
import math
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import render_dashboard as r  # noqa: E402

SCRAPE = """# HELP faultline_jooq_savepoints_total Savepoints
# TYPE faultline_jooq_savepoints_total counter
faultline_jooq_savepoints_total{{event="created"}} {created}
faultline_jooq_savepoints_total{{event="released"}} {released}
faultline_kafka_request_phase_seconds_sum{{node_id="1",phase="queue",api="produce"}} {sum1}
faultline_kafka_request_phase_seconds_count{{node_id="1",phase="queue",api="produce"}} {count1}
faultline_kafka_request_phase_seconds_sum{{node_id="1",phase="queue",api="fetch"}} {sum1}
faultline_kafka_request_phase_seconds_count{{node_id="1",phase="queue",api="fetch"}} {count1}
faultline_pg_slru_hit_ratio{{slru="multixact_member"}} NaN
faultline_findings_active_findings{{id="JOOQ_NESTED_TRANSACTION",severity="WARNING",note="a \\"quoted\\" value"}} 1.0
"""


def scrapes(n):
    """n scrapes a second apart: 2 savepoints created and 1 released a second, requests of 10 ms."""
    return [
        (1000.0 + i, r.parse_scrape(SCRAPE.format(
            created=2 * i, released=i, sum1=0.01 * 5 * i, count1=5 * i)))
        for i in range(n)
    ]


def last(expr, data):
    return {frozenset(k): v[1][-1] for k, v in r.query_series(expr, data).items()}


class PromQlSubsetTest(unittest.TestCase):

    def test_labels_with_escapes_parse(self):
        sample = r.parse_scrape(SCRAPE.format(created=0, released=0, sum1=0, count1=0))
        keys = [dict(labels) for (name, labels) in sample if name.startswith("faultline_findings")]
        self.assertEqual('a "quoted" value', keys[0]["note"])

    def test_rate_of_a_full_window_is_the_slope(self):
        got = last('sum by (event) (rate(faultline_jooq_savepoints_total{instance=~"$instance"}[1m]))',
                   scrapes(120))
        self.assertAlmostEqual(2.0, got[frozenset({("event", "created")})], places=6)
        self.assertAlmostEqual(1.0, got[frozenset({("event", "released")})], places=6)

    def test_increase_is_rate_times_range(self):
        got = last('sum(increase(faultline_jooq_savepoints_total{event="created"}[1m]))', scrapes(120))
        self.assertAlmostEqual(120.0, got[frozenset()], places=6)

    def test_a_counter_reset_is_not_a_negative_rate(self):
        data = scrapes(120)
        for t, sample in data[100:]:
            for key in list(sample):
                if key[0] == "faultline_jooq_savepoints_total":
                    sample[key] -= 200  # the process restarted at t=1100
        got = last('rate(faultline_jooq_savepoints_total{event="created"}[1m])', data)
        self.assertGreater(min(got.values()), 0)

    def test_mean_is_sum_rate_over_count_rate_by_the_grouping_labels(self):
        expr = ("sum by (node_id, phase) (rate(faultline_kafka_request_phase_seconds_sum[1m]))"
                " / sum by (node_id, phase) (rate(faultline_kafka_request_phase_seconds_count[1m]))")
        got = last(expr, scrapes(120))
        self.assertEqual([frozenset({("node_id", "1"), ("phase", "queue")})], list(got))
        self.assertAlmostEqual(0.01, next(iter(got.values())), places=9)

    def test_aggregation_skips_nan_and_matchers_filter(self):
        got = last("max by (slru) (faultline_pg_slru_hit_ratio)", scrapes(3))
        self.assertTrue(math.isnan(got[frozenset({("slru", "multixact_member")})]))
        none = last('faultline_jooq_savepoints_total{event!~"created|released"}', scrapes(3))
        self.assertEqual({}, none)

    def test_histogram_quantile_interpolates_in_the_bucket_holding_the_rank(self):
        # Every second one request under 1 ms, four more under 10 ms, five more under 100 ms.
        per_second = {"0.001": 1, "0.01": 5, "0.1": 10, "+Inf": 10}
        data = [
            (1000.0 + i, r.parse_scrape("".join(
                f'faultline_kafka_request_gap_seconds_bucket{{node_id="2",api="produce",le="{le}"}}'
                f" {n * i}\n" for le, n in per_second.items())))
            for i in range(120)
        ]
        expr = ("histogram_quantile({q}, sum by (node_id, le) "
                "(rate(faultline_kafka_request_gap_seconds_bucket[1m])))")
        p99 = last(expr.format(q=0.99), data)[frozenset({("node_id", "2")})]
        self.assertAlmostEqual(0.01 + 0.09 * (9.9 - 5) / 5, p99, places=9)
        p50 = last(expr.format(q=0.5), data)[frozenset({("node_id", "2")})]
        self.assertAlmostEqual(0.01, p50, places=9)
        p05 = last(expr.format(q=0.05), data)[frozenset({("node_id", "2")})]
        self.assertAlmostEqual(0.001 * 0.5, p05, places=9)

    def test_every_dashboard_query_parses(self):
        dashboard = json.loads((Path(__file__).parent / "faultline-dashboard.json").read_text())
        for panel in dashboard["panels"]:
            for target in panel.get("targets", []):
                r.Parser(target["expr"].replace("$instance", ".*")).parse()

    def test_renders_a_directory_of_scrapes(self):
        with tempfile.TemporaryDirectory() as d:
            for t, _ in scrapes(5):
                Path(d, f"{int(t * 1000)}.prom").write_text(
                    SCRAPE.format(created=t, released=t, sum1=t, count1=t))
            out = Path(d, "out.png")
            dashboard = json.loads((Path(__file__).parent / "faultline-dashboard.json").read_text())
            r.render(dashboard, r.load_scrapes(d), str(out))
            self.assertGreater(out.stat().st_size, 10_000)


if __name__ == "__main__":
    unittest.main()
