"""Three wordings of the decisions a procurement audit (2026-12-07) found misleading, all numbers right, on a scenario
that owns one RTX A5000 under a 1 kW power cap and a 2,500 USD a year capex budget:

1. "with no cards (all cloud): 47,350 USD" beside the baselines' "all cloud (no new hardware)" at 30,342 USD: two
   "all cloud" plans at two totals. The baseline keeps the owned card; the best plan with no card held sells it (a
   card switched off is still held, engine.model.define_card_counts), and now says so: "with no cards (1 owned card
   sold, all cloud)".
2. A "Firm" verdict on a runner-up "rtx-a5000 2 → 3": 3 × 400 W passes the 1 kW cap, so only 2 work and the third is
   held switched off — the working owned card, with two bought. The differences now say "rtx-a5000 2 → 3 (1 switched
   off)" wherever they are shown (CLI, summary.md, dashboard, workbook).
3. "binds: no, saving 0" of the budget, which does cost money once the power cap is lifted with it: every front end
   showing the cap costs now says each limit is lifted alone (engine.decisions.CAPS_LIFTED_ALONE).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
OFFERS = ROOT / "examples" / "offers-g5-us-east-1.csv"   # g5.xlarge on demand, 1.006 USD an hour

SCENARIO = {
    "name": "hand1", "currency": "USD", "horizon_months": 24, "discount_rate": 0.0,
    "prices": {"source": OFFERS.name, "providers": ["aws"], "purchase_options": ["on_demand"]},
    "onprem": {
        "electricity_per_kwh": 0.20, "pue": 1.5, "availability": 0.9, "cards": ["rtx-a5000"],
        "card_overrides": {"rtx-a5000": {"price": 2000, "currency": "USD", "host_cost_per_card": 500, "busy_watts": 400,
                                         "idle_watts": 100, "life_years": 4, "maintenance_rate_per_year": 0.05}},
        "existing": {"rtx-a5000": {"count": 1, "age_months": 12}},
        "capex_budget_per_year": 2500, "power_cap_kw": 1.0},
    "workloads": [{"name": "training", "gpu_hours_per_month": 1600, "reference_gpu": "RTX-A5000",
                   "min_gpu_memory_gb": 16, "profile": "flat", "throughput": {"RTX-A5000": 1.0, "A10G": 0.8}}],
}
# the cloud alone: 1,600 reference hours a month at 0.8 of the A5000's speed on g5.xlarge, over 24 months
CLOUD_ALONE = 1600 / 0.8 * 1.006 * 24                          # 48,288 USD
# the owned card sold in month 1, 12 of its 48 months gone: 0.5 × straight-line book value of its 2,500 USD
SALE_CREDIT = 0.5 * (2000 + 500) * (48 - 12) / 48               # 937.50 USD
CAPS_ALONE = ("Each limit is lifted alone, the others kept: limits can bind together, so lifting several at once can "
              "save more than the sum of their savings (a limit that saves nothing alone may save once another is "
              "lifted too).")


def _write(tmp_path: Path, scenario: dict, name: str = "s1.yaml") -> Path:
    shutil.copy(OFFERS, tmp_path / OFFERS.name)
    path = tmp_path / name
    path.write_text(yaml.safe_dump(scenario), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def planned(tmp_path_factory):
    """The CLI's table output, summary.md and plan.json of one `plan --out` of the scenario."""
    tmp_path = tmp_path_factory.mktemp("words")
    out = tmp_path / "out"
    result = run("plan", _write(tmp_path, SCENARIO), "--out", out)
    assert result.exit_code == 0, result.output
    return SimpleNamespace(text=" ".join(result.stdout.split()), summary=(out / "summary.md").read_text(encoding="utf-8"),
                           plan=json.loads((out / "plan.json").read_text(encoding="utf-8")), tmp_path=tmp_path)


# --- 1. the no-cards plan sells the owned card ----------------------------------------------------------------------

def test_the_no_cards_line_says_the_owned_card_is_sold(planned):
    types = planned.plan["runner_up"]["other_types"]
    # the premise: no card held (one switched off would be held), so the owned card is sold, and its total is the
    # cloud alone less the sale's credit, while the baseline "all cloud (no new hardware)" keeps the card
    assert types["fleet"] == {} and types["sold"] == {"rtx-a5000": 1} and types["switched_off"] == {}
    assert types["total"] == pytest.approx(CLOUD_ALONE - SALE_CREDIT, abs=0.01)   # 47,350.50
    assert "all cloud (no new hardware) │ optimal │ 30,342" in planned.text
    assert "with no cards (1 owned card sold, all cloud): 47,350 USD" in planned.text
    assert "with no cards (all cloud)" not in planned.text


def test_the_dashboard_says_the_owned_card_is_sold(planned):
    from fleetplan_dashboard.tables import other_types_text

    text = other_types_text(planned.plan["runner_up"], "USD")
    # the differences say the plan's A5000 bought in year 1 and the owned one sold (test_decisions_words_sales_caps_headers)
    assert text.startswith(r"With no cards, 1 owned card sold\, all cloud (rtx\-a5000 2 \(1 bought in year 1\) → 0 \(1 owned "
                           r"sold\)): 47,350 USD"), text


@pytest.mark.parametrize(("other", "words"), [
    ({"fleet": {}, "sold": {}, "switched_off": {}}, "all cloud"),                       # nothing owned
    ({"fleet": {}, "sold": {"a": 2, "b": 1}}, "3 owned cards sold, all cloud"),
    ({"fleet": {"a": 2}, "switched_off": {"a": 2}, "sold": {}}, "2 owned cards switched off, all cloud"),
    ({"fleet": {"a": 1}, "switched_off": {"a": 1}, "sold": {"a": 1}}, "1 owned card sold and 1 switched off, all cloud"),
    ({"fleet": {"a": 2}, "switched_off": {"a": 1}, "sold": {}}, None),                   # one card still works
    ({"fleet": {"aws:us-east-1:g5.xlarge:reserved_1y": 1}}, None),                       # a reservation is no cloud alone
    ({"fleet": None}, None),                                                             # no fleet found
])
def test_a_fleet_with_no_card_at_work_is_worded_with_its_owned_cards(other, words):
    from planner.engine.decisions import all_cloud_words

    assert all_cloud_words(other) == words


# --- 2. the runner-up's switched-off card ---------------------------------------------------------------------------

def test_the_runner_up_says_its_switched_off_card(planned):
    runner = planned.plan["runner_up"]
    # the premise: 1 kW runs at most 1000 // 400 = 2 cards at 400 W, so of the runner-up's 3 held one is switched off
    assert runner["fleet"] == {"rtx-a5000": 3} and runner["switched_off"] == {"rtx-a5000": 3 - 1000 // 400}
    assert runner["differences"] == ["rtx-a5000 2 → 3 (1 switched off)"]
    assert "more: rtx-a5000 2 → 3 (1 switched off)" in planned.text
    assert "Firm: the runner-up fleet (rtx-a5000 2 → 3 (1 switched off)) costs 25,213 USD" in planned.summary


def test_the_dashboard_verdict_says_the_switched_off_card(planned):
    from fleetplan_dashboard.tables import verdict

    made = SimpleNamespace(runner_up=planned.plan["runner_up"], close_call=planned.plan["close_call"])
    kind, text = verdict(planned.plan["total"], "USD", made)
    assert kind == "firm" and r"the runner-up (rtx\-a5000 2 → 3 \(1 switched off\)) costs 25,213 USD" in text, text


def test_the_differences_say_switched_off_cards_on_either_side():
    from planner.engine.decisions import fleet_differences

    assert fleet_differences({"a": 2}, {"a": 3}, {}, {"a": 1}) == ["a 2 → 3 (1 switched off)"]
    assert fleet_differences({"a": 2, "b": 1}, {"a": 2}, {"a": 1}, {"a": 1}) == ["b 1 → 0"]   # off alike: not said
    # the same count, one more switched off: a difference in what works
    assert fleet_differences({"a": 2, "b": 1}, {"a": 2}, {}, {"a": 1}) == ["a 2 → 2 (1 switched off)", "b 1 → 0"]
    assert fleet_differences({"a": 1}, {"a": 2}) == ["a 1 → 2"]                                # without: as before


def test_the_workbook_says_the_switched_off_and_sold_cards(planned):
    import openpyxl

    book = openpyxl.load_workbook(planned.tmp_path / "out" / "plan.xlsx")
    rows = {r[0]: r[1] for r in book["runner-up"].iter_rows(min_row=2, values_only=True)}
    assert rows["runner_up.differences"] == "rtx-a5000 2 → 3 (1 switched off)"
    assert rows["runner_up.switched_off.rtx-a5000"] == 1 and rows["other_types.sold.rtx-a5000"] == 1
    alternatives = list(book["count alternatives"].iter_rows(values_only=True))
    column = alternatives[0].index("differences")
    assert "rtx-a5000 2 → 3 (1 switched off)" in [r[column] for r in alternatives[1:]]


# --- 3. each limit is lifted alone ----------------------------------------------------------------------------------

def test_the_cap_costs_say_each_limit_is_lifted_alone(planned):
    caps = {c["cap"]: c for c in planned.plan["cap_costs"]}
    # the premise: the budget saves nothing alone, and lifting it with the power cap saves more than the power cap alone
    assert caps["onprem.capex_budget_per_year"]["binds"] is False
    # the saving column holds 2,056.6 above: 0 reads 0.0
    assert "onprem.capex_budget_per_year │ 2,500 │ USD │ 14,583.4 │ 0.0 │ 0.0 │ no" in planned.text
    onprem = dict(SCENARIO["onprem"])
    del onprem["power_cap_kw"]
    neither = {**onprem}
    del neither["capex_budget_per_year"]
    totals = []
    for name, changed in (("power.yaml", onprem), ("neither.yaml", neither)):
        result = run("plan", _write(planned.tmp_path, {**SCENARIO, "onprem": changed}, name), "--format", "json",
                     "--no-decisions", "--no-baselines")
        assert result.exit_code == 0, result.output
        totals.append(json.loads(result.stdout)["total"])
    assert totals[0] == pytest.approx(caps["onprem.power_cap_kw"]["total_without"], abs=0.01)
    assert totals[1] < totals[0] - 1000   # the budget, dropped with the power cap, saves over 1,000 USD more
    assert CAPS_ALONE in planned.text


def test_the_workbook_notes_each_limit_is_lifted_alone(planned):
    import openpyxl

    header = next(openpyxl.load_workbook(planned.tmp_path / "out" / "plan.xlsx")["cap costs"].iter_rows(max_row=1))
    notes = {cell.value: cell.comment.text for cell in header if cell.comment}
    assert notes == {"binds": CAPS_ALONE}


def test_the_workbook_says_the_recommended_plan_s_sold_cards_too():
    # startup-hybrid owns two RTX 3060s (scenarios/startup-hybrid.yaml) and its plan sells both (README's fleet table:
    # "rtx-3060-12gb … sell … 2"); docs/workbook.md gives every side its sold rows, the recommended one had none
    from planner import plan
    from planner.engine import add_decisions
    from planner.reports.excel import runner_up_sheet

    p = plan(ROOT / "scenarios" / "startup-hybrid.yaml")
    add_decisions(p)
    rows = dict(zip(runner_up_sheet(p).frame["field"], runner_up_sheet(p).frame["value"]))
    assert rows["recommended.sold.rtx-3060-12gb"] == 2
