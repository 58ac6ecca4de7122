"""The stale and undated price warnings say how much of the plan's total rests on those prices: an audit's EUR plan put
23 % of its total on one undated spot price (p4d.24xlarge, "lowest of 4 zone quotes"), and the warning named it among
"1 of 5" with nothing to weigh it by (2026-12-07)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from planner.catalog import date_report
from planner.engine import plan

INDUSTRIAL = Path(__file__).resolve().parents[2] / "scenarios" / "industrial.yaml"


def _offers(*rows):
    return {"provider": [r[0] for r in rows], "sku": [r[1] for r in rows], "purchase_option": [r[2] for r in rows],
            "region": [r[3] for r in rows], "as_of": [r[4] for r in rows], "source": ["x"] * len(rows)}


def test_the_undated_prices_share_of_the_total_is_summed_and_said():
    used = _offers(("aws", "a", "spot", "r", ""), ("aws", "b", "on_demand", "r", ""), ("aws", "c", "spot", "r", "2026-11-01"))
    # by hand: 0.20 + 0.03 = 0.23 of the total on the two undated offers; the dated one's share is not theirs
    shares = {"aws a spot (r)": 0.20, "aws b on_demand (r)": 0.03, "aws c spot (r)": 0.77}
    report = date_report(used, today=date(2026, 12, 7), share_of_total=shares)
    [undated] = [w for w in report["warnings"] if w.startswith("undated")]
    assert undated == ("undated prices: 2 of 3 prices used have no date: aws a spot (r), aws b on_demand (r) "
                       "(their units cost 23 % of the plan's total)")


def test_a_small_share_keeps_two_digits_and_a_credit_says_none():
    used = _offers(("aws", "a", "spot", "r", "2025-01-01"))
    stale = date_report(used, today=date(2026, 12, 7), share_of_total={"aws a spot (r)": 0.013})["warnings"][0]
    assert stale.endswith("aws a spot (r) (their units cost 1.3 % of the plan's total)")
    credit = date_report(used, today=date(2026, 12, 7), share_of_total={"aws a spot (r)": -0.05})["warnings"][0]
    assert credit.endswith("aws a spot (r)")   # a card sold at once is a credit: no share to weigh
    assert date_report(used, today=date(2026, 12, 7))["warnings"][0].endswith("aws a spot (r)")   # none given


def test_a_plans_warnings_weigh_its_undated_and_stale_prices_by_their_units_cost():
    p = plan(INDUSTRIAL, baselines=False)
    fleet = p.fleet.set_index("sku")["cost"]
    spot, card = fleet["p4d.24xlarge"] / p.total, fleet["a100-80gb-pcie"] / p.total
    assert 0.01 < spot < 0.1 and 0.1 < card < 1   # the premise: the shares as formatted below
    [undated] = [w for w in p.warnings if w.startswith("undated prices:")]
    assert undated.endswith(f"aws p4d.24xlarge spot (us-east-1) (their units cost {spot * 100:.2g} % of the plan's total)")
    [stale] = [w for w in p.warnings if w.startswith("stale prices:")]
    assert stale.endswith(f"card a100-80gb-pcie (their units cost {card * 100:.0f} % of the plan's total)")
