"""A reservation's monthly fees after the horizon, in `Plan.flows`: one row per month, each discounted in its own
month, so every row's `present_value` is its `cost` × its `discount_factor`. A notebook audit (2026-12) found them
folded into one row of month H+1 (cost 3,504 = 12 × 292 for months 25–36) carrying d(25) = 0.889996 but the present
value 3,036.79 of the twelve payments each discounted in its month — cost × discount_factor = 3,118.55, not 3,036.79.
The monthly table keeps summing them into its row H+1 (docs/cost-model.md §13), unchanged.

The case: examples/worked-example.yaml over H = 24 months at 6 %/year, 1,600 GPU-hours a month, with an AWS g5.xlarge
reserved_3y row added to its offers (test figures: 0.4 USD/h, 3,000 USD upfront, 36-month term). Figures by hand
(docs/cost-model.md §9): the fee is 0.4 × 730 = 292 USD a month, paid in months 1–36; d(m) = 1 / 1.06^((m − 1)/12).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import yaml

from planner import load_scenario, plan

ROOT = Path(__file__).resolve().parents[2]
H = 24
RATE = 0.06
FEE = 0.4 * 730                         # 292 USD a month


def d(m: int) -> float:
    return 1 / (1 + RATE) ** ((m - 1) / 12)


def worked_with_reservations(tmp_path: Path, reservations: list[tuple[str, str, str, str]]) -> Path:
    """worked-example.yaml over 24 months at 6 %, 1,600 GPU-hours a month, its offers plus one g5.xlarge row per
    (purchase_option, hourly_price, upfront_price, term_months) in `reservations`."""
    with open(ROOT / "examples" / "offers-g5-us-east-1.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    on_demand = rows[0]
    assert on_demand["purchase_option"] == "on_demand" and on_demand["sku"] == "g5.xlarge"
    for option, hourly, upfront, term in reservations:
        rows.append({**on_demand, "offer_id": f"aws:us-east-1:g5.xlarge:{option}", "purchase_option": option,
                     "hourly_price": hourly, "upfront_price": upfront, "term_months": term})
    offers = tmp_path / "offers.csv"
    with open(offers, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(on_demand))
        writer.writeheader()
        writer.writerows(rows)
    scenario = yaml.safe_load((ROOT / "examples" / "worked-example.yaml").read_text())
    scenario.update(horizon_months=H, discount_rate=RATE)
    scenario["prices"].update(source=str(offers), purchase_options=["on_demand", *(r[0] for r in reservations)])
    scenario["workloads"][0]["gpu_hours_per_month"] = 1600
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(scenario))
    return path


@pytest.fixture(scope="module")
def reserved_3y(tmp_path_factory):
    p = plan(load_scenario(worked_with_reservations(tmp_path_factory.mktemp("flows"),
                                                    [("reserved_3y", "0.4", "3000", "36")])), baselines=False)
    held = p.fleet[p.fleet["purchase_option"] == "reserved_3y"]
    assert list(held["units"]) == [1.0]     # the case holds one reservation: the figures below are for one
    return p


def test_fees_after_the_horizon_are_one_row_a_month_each_discounted_in_its_month(reserved_3y):
    f = reserved_3y.flows
    late = f[(f["month"] > H) & (f["category"] == "cloud_reserved")].sort_values("month")
    assert list(late["month"]) == list(range(25, 37))
    assert list(late["cost"]) == pytest.approx([FEE] * 12, rel=1e-12)
    assert list(late["discount_factor"]) == pytest.approx([d(m) for m in range(25, 37)], rel=1e-12)
    assert list(late["present_value"]) == pytest.approx([FEE * d(m) for m in range(25, 37)], rel=1e-12)
    assert late["present_value"].sum() == pytest.approx(sum(FEE * d(m) for m in range(25, 37)), rel=1e-12)  # 3,036.79
    assert list(late["pricing_quantity"]) == [1.0] * 12                                       # one unit-month each


def test_every_flow_is_its_cost_times_its_discount_factor(reserved_3y):
    f = reserved_3y.flows
    assert (f["cost"] * f["discount_factor"]).to_numpy() == pytest.approx(f["present_value"].to_numpy(), rel=1e-12,
                                                                           abs=1e-9)
    assert f["present_value"].sum() == pytest.approx(reserved_3y.total, rel=1e-12)


def test_the_monthly_table_still_sums_them_into_row_h_plus_1(reserved_3y):
    """Row H+1 (month 25): the twelve fees and the A5000's resale credit, −0.5 × 2,500 × (1 − 24/48) = −625 at d(25);
    the whole table adds up to the plan's flows and total."""
    p = reserved_3y
    m = p.monthly
    assert list(m["month"]) == list(range(1, H + 2))
    row = m[m["month"] == H + 1].iloc[0]
    assert row["cloud_reserved"] == pytest.approx(12 * FEE, rel=1e-12)                     # 3,504
    assert row["residual_value"] == pytest.approx(-625.0, rel=1e-12)
    assert row["total"] == pytest.approx(12 * FEE - 625.0, rel=1e-12)                       # 2,879
    assert row["discount_factor"] == pytest.approx(d(25), rel=1e-12)
    assert row["total_discounted"] == pytest.approx(sum(FEE * d(k) for k in range(25, 37)) - 625.0 * d(25), rel=1e-12)
    assert m["total_discounted"].sum() == pytest.approx(p.total, rel=1e-12)
    assert m["total"].sum() == pytest.approx(p.flows["cost"].sum(), rel=1e-12)
    assert p.costs["cost"].sum() == pytest.approx(p.total, rel=1e-12)


def test_focus_rows_after_the_horizon_are_the_flows_own(reserved_3y):
    """The FOCUS export had split the folded row itself: its rows after the horizon are the flows' rows now."""
    from planner.reports.focus import plan_to_focus

    out = plan_to_focus(reserved_3y)
    billed = out[(out["x_PlanMonth"] > H) & (out["BilledCost"] > 0)]   # the A5000's credit, month 25, is < 0
    assert sorted(billed["x_PlanMonth"]) == list(range(25, 37))
    assert list(billed.sort_values("x_PlanMonth")["BilledCost"]) == pytest.approx([FEE] * 12, rel=1e-12)
    assert out["x_PresentValue"].sum() == pytest.approx(reserved_3y.total, rel=1e-12)
