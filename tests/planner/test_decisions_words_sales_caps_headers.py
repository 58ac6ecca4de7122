"""Five wordings of the decisions the last session's note left as known problems, each checked on small scenarios whose
figures are worked out by hand:

1. The runner-up's line named held counts only: a sale of owned cards, or a purchase moved to another plan year, was
   in the JSON alone ("rtx-3060-12gb 0 → 1" read as one owned RTX 3060 kept, where it is bought beside the two sold).
2. summary.md had no decision values and no flip points, which the plan carries and the CLI's tables show.
3. A count alternative that the power cap or the cloud share cap forbids read "no plan meets the scenario's demand and
   caps with that many", where one the capex budget forbids names the budget.
4. The "only <card>" baseline keeps the other owned cards, which its label did not say.
5. The fleet table's `units` (the most in service at once) and the decision tables' (held over the plan) had one
   header.
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
WORKED = yaml.safe_load((ROOT / "examples" / "worked-example.yaml").read_text(encoding="utf-8"))
# the worked example: one RTX A5000 (400 W busy, 2,000 + 500 USD) for 800 reference GPU-hours a month, the rest on
# g5.xlarge (an A10G at 0.8 of its speed); capex_budget 2,500 USD; availability 0.9
A5000_KW = 400 / 1000
ONE_CARD_HOURS = 730 * 0.9                      # 657 reference GPU-hours a month from one A5000 (the reference GPU)


def _scenario(tmp_path: Path, name: str, **changes) -> Path:
    """The worked example with `changes` to its onprem (onprem=…) or constraints (constraints=…) sections, and
    capex_budget dropped where `no_budget`."""
    scenario = yaml.safe_load(yaml.safe_dump(WORKED))
    if changes.pop("no_budget", False):
        del scenario["onprem"]["capex_budget"]
    for section, values in changes.items():
        scenario.setdefault(section, {}).update(values)
    shutil.copy(OFFERS, tmp_path / OFFERS.name)
    path = tmp_path / name
    path.write_text(yaml.safe_dump(scenario), encoding="utf-8")
    return path


def _plan(*args) -> SimpleNamespace:
    result = run("plan", *args)
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def worked(tmp_path_factory):
    """The worked example's table output, summary.md and plan.json (`plan --out`)."""
    tmp_path = tmp_path_factory.mktemp("worked")
    out = tmp_path / "out"
    result = _plan(_scenario(tmp_path, "worked.yaml"), "--out", out)
    return SimpleNamespace(text=result.stdout, summary=(out / "summary.md").read_text(encoding="utf-8"),
                           plan=json.loads((out / "plan.json").read_text(encoding="utf-8")))


# --- 1. the runner-up's line says sales and purchases ---------------------------------------------------------------

def test_startup_hybrid_s_runner_up_says_its_rtx_3060_is_bought_beside_the_two_owned_sold():
    scenario = yaml.safe_load((ROOT / "scenarios" / "startup-hybrid.yaml").read_text(encoding="utf-8"))
    owned = scenario["onprem"]["existing"]["rtx-3060-12gb"]                     # 2
    result = _plan(ROOT / "scenarios" / "startup-hybrid.yaml", "--format", "json")
    plan = json.loads(result.stdout)
    runner = plan["runner_up"]
    plan_sold = {r["sku"]: r["sold_units"] for r in plan["fleet"] if r["kind"] == "card"}["rtx-3060-12gb"]
    # the premise: both sides sell both owned cards, and the runner-up holds one: so it buys one (1 − (2 − 2))
    assert plan_sold == owned and runner["sold"] == {"rtx-3060-12gb": owned}
    held = runner["fleet"]["rtx-3060-12gb"]
    bought = held - (owned - runner["sold"]["rtx-3060-12gb"])
    assert (held, bought) == (1, 1)
    # when: the best plan holding at least one RTX 3060, planned with that constraint, buys it in month 34 (its
    # purchase schedule) at the runner-up's total: plan year (34 − 1) // 12 + 1 = 3
    from planner import plan as make_plan

    def one_3060(m):
        m.prob += (m.card("rtx-3060-12gb") >= 1, "one_3060")

    held_one = make_plan(ROOT / "scenarios" / "startup-hybrid.yaml", baselines=False, extra_constraints=one_3060)
    assert held_one.total == pytest.approx(runner["total"], abs=0.01)
    buys = held_one.schedule[(held_one.schedule["card"] == "rtx-3060-12gb") & (held_one.schedule["action"] == "buy")]
    assert buys["month"].tolist() == [34] and buys["units"].tolist() == [1]
    assert runner["differences"] == [
        f"rtx-3060-12gb 0 ({owned} owned sold) → {held} ({bought} bought in year {(34 - 1) // 12 + 1}, {owned} owned sold)"]


def test_the_best_plan_with_no_cards_says_it_sells_the_owned_card_the_plan_keeps():
    from tests.planner.test_decisions_words_owned_and_caps import SCENARIO, _write

    # one owned RTX A5000; the plan holds 2 (the owned one and one bought), the plan with no cards sells the owned one
    tmp = Path(pytest.importorskip("tempfile").mkdtemp())
    try:
        plan = json.loads(_plan(_write(tmp, SCENARIO), "--format", "json").stdout)
    finally:
        shutil.rmtree(tmp)
    types = plan["runner_up"]["other_types"]
    assert plan["runner_up"]["plan_fleet"] == {"rtx-a5000": 2} and types["sold"] == {"rtx-a5000": 1}
    # the plan's A5000 bought in month 1 (its purchase schedule): year 1
    assert [(r["month"], r["units"]) for r in plan["schedule"] if r["action"] == "buy"] == [(1, 1)]
    assert types["differences"] == ["rtx-a5000 2 (1 bought in year 1) → 0 (1 owned sold)"]


def test_the_differences_say_a_sale_and_a_purchase_moved_to_another_year():
    from planner.engine.decisions import bought_by_year, fleet_differences

    # the plan keeps its 2 owned cards a; the other fleet sells one of them (no purchase of a on either side)
    assert fleet_differences({"a": 2}, {"a": 1}, {}, {}, {}, {"a": 1}, {}, {}) == ["a 2 → 1 (1 owned sold)"]
    # both sell their 2 owned cards a, the other fleet holds 1: bought, 1 − (2 − 2), not an owned card kept
    assert fleet_differences({}, {"a": 1}, {}, {}, {"a": 2}, {"a": 2}, owned={"a": 2}) == [
        "a 0 (2 owned sold) → 1 (1 bought, 2 owned sold)"]
    # b bought in month 1 by the plan, in month 13 by the other fleet (plan year 2), beside one card c more
    plan_b, other_b = bought_by_year({("b", 1): 1.0}), bought_by_year({("b", 13): 1.0, ("c", 1): 1.0})
    assert plan_b == {"b": {1: 1}} and other_b == {"b": {2: 1}, "c": {1: 1}}
    assert fleet_differences({"b": 1}, {"b": 1, "c": 1}, {}, {}, {}, {}, plan_b, other_b) == [
        "b 1 (bought in year 1) → 1 (bought in year 2)", "c 0 → 1"]
    # the same purchases: nothing moved, as before
    assert fleet_differences({"b": 1}, {"b": 1, "c": 1}, {}, {}, {}, {}, plan_b, {**plan_b, "c": {1: 1}}) == ["c 0 → 1"]
    # two in year 1 against one in year 1 and one in year 3
    assert fleet_differences({"b": 2}, {"b": 2, "c": 1}, None, None, None, None, {"b": {1: 2}},
                             {"b": {1: 1, 3: 1}}) == ["b 2 (bought in year 1) → 2 (bought 1 in year 1, 1 in year 3)",
                                                      "c 0 → 1"]


# --- 2. summary.md gives the decision values and the flip points ----------------------------------------------------

def test_summary_md_gives_the_decision_values_and_the_flip_points_in_the_tables_words(worked):
    summary = worked.summary
    assert ("## What each decision is worth (USD, present value at 0%/year, undiscounted): the total when it is "
            "forbidden, and the increase") in summary
    assert ("## Flip points: the demand of the workload a card mainly serves just below which the plan holds fewer "
            "of it") in summary
    # the one purchase: the card in month 1
    assert "| buy | rtx-a5000 | 1 | 1 | optimal |" in summary
    # the card stops paying at 2,650.60 / (24 × 1.1675) GPU-hours a month (docs/decisions.md, by hand): 94.597
    flip = 2650.60 / (24 * 1.1675)
    assert f"| rtx-a5000 | 1 | training | 800 | {flip:.3f} | {flip / 800:.3f} | GPU-hours per month |" in summary


def test_summary_md_has_no_decision_sections_without_decisions(tmp_path):
    out = tmp_path / "out"
    _plan(_scenario(tmp_path, "worked.yaml"), "--out", out, "--no-decisions")
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "What each decision is worth" not in summary and "Flip points" not in summary


# --- 3. a count alternative names the cap that forbids it -----------------------------------------------------------

def test_one_card_more_names_the_power_cap_that_forbids_it(tmp_path):
    cap = 0.5   # kW: one card at 0.4 kW fits, two at 0.8 kW do not (both bought cards are in service together)
    assert A5000_KW <= cap < 2 * A5000_KW
    result = _plan(_scenario(tmp_path, "power.yaml", no_budget=True, onprem={"power_cap_kw": cap}))
    text = " ".join(result.stdout.split())
    assert ("one card more or fewer: 1 of 2 not shown: at least 2 rtx-a5000: no plan with that many meets "
            "onprem.power_cap_kw (0.5 kW): one does without it") in text


def test_one_card_fewer_names_the_cloud_share_cap_that_forbids_it(tmp_path):
    share = 0.1   # with one card (657 of 800 h) 17.9 % of the work runs in the cloud; with two, none
    assert (800 - ONE_CARD_HOURS) / 800 > share
    result = _plan(_scenario(tmp_path, "share.yaml", no_budget=True, constraints={"max_cloud_share": share}),
                   "--format", "json")
    counts = json.loads(result.stdout)["runner_up"]["count_alternatives"]
    fewer = [a for a in counts if a["alternative_units"] < a["units"]]
    assert [(a["units"], a["alternative_units"], a["status"]) for a in fewer] == [(2, 1, "infeasible")]
    assert fewer[0]["note"] == "no plan with that many meets constraints.max_cloud_share (0.1): one does without it"


# --- 4. the "only <card>" baseline says it keeps the owned cards ----------------------------------------------------

def test_the_only_card_baseline_says_it_keeps_the_owned_cards(tmp_path, worked):
    # an owned RTX 3060 (12 GB: too small for the 16 GB workload) beside the A5000 the baseline may buy
    # (its catalog price is in CNY: the rate startup-hybrid.yaml gives)
    result = _plan(_scenario(tmp_path, "owned.yaml", onprem={"existing": {"rtx-3060-12gb": 1}}, fx={"CNY": 0.13749}),
                   "--format", "json", "--no-decisions")
    labels = {b["baseline"]: b["label"] for b in json.loads(result.stdout)["baselines"]}
    assert labels["best_single"] == "only rtx-a5000 (and owned cards)"
    # nothing owned: as before
    assert {b["baseline"]: b["label"] for b in worked.plan["baselines"]}["best_single"] == "only rtx-a5000"


# --- 5. the headers say most in service and held --------------------------------------------------------------------

def test_the_fleet_says_most_in_service_and_the_decision_tables_held(worked):
    text = worked.text
    assert "most in service" in text
    assert "┃ card      ┃ held ┃ asked ┃ held_units ┃" in text          # one card more or fewer
    assert "┃ card      ┃ held ┃ workload ┃" in text                      # flip points
    assert "at most held − 1 or at least held + 1" in " ".join(text.split())
    # the JSON keeps its keys
    assert "units" in worked.plan["fleet"][0] and "units" in worked.plan["flip_points"][0]
    assert "units" in worked.plan["runner_up"]["count_alternatives"][0]


def test_a_narrow_terminal_heads_the_fleet_s_units_most_in_service():
    import pandas as pd

    from planner.cli.fleet_table import fleet_narrower

    fleet = pd.DataFrame([{"provider": "onprem", "region": "onprem", "sku": "rtx-a5000", "gpu": "RTX-A5000",
                           "purchase_option": "purchase", "kind": "card", "units": 1, "existing_units": 0, "new_units": 1,
                           "sold_units": 0, "switched_off_units": 0, "instance_hours": 100.0, "cost": 10.0,
                           "unit_id": "onprem:onprem:rtx-a5000:purchase"}])
    narrow = fleet_narrower(fleet)
    assert "units\n(most)" in narrow.table.columns and "units" not in narrow.table.columns
