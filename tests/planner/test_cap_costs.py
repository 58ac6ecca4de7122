"""What each limit a scenario sets costs the plan (engine.decisions' cap costs): the plan solved again
without the limit, against numbers found without the code under test:

- the README's worked example by hand (docs/cost-model.md §16, tests/planner/test_baselines_cheaper_note.py):
  within its 2,500 USD capex budget the plan holds one RTX A5000 and rents the rest, 8,385.46 USD; without the
  budget two A5000s do all 800 hours a month, 7,029.20 USD;
- twenty cards required (min_units 20): 20 × the card's fixed cost of 2,650.60 USD over 24 months (capex
  2,500 − resale 625 + maintenance 250 + idle energy 525.60) + busy energy 0.3 kW × 800 h × 1.5 × 0.20 × 24 =
  1,728 USD → 54,740 USD;
- every limit of startup-hybrid.yaml dropped from the scenario itself (`plan(…, overrides=…)`, the public
  path a user takes), not from the inputs as the cap costs drop it.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from typer.testing import CliRunner

from planner import add_decisions, plan
from planner.cli import app
from planner.errors import PlannerError

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
HYBRID = ROOT / "scenarios" / "startup-hybrid.yaml"
ONE_CARD, TWO_CARDS = 8385.46, 7029.20
CARD_FIXED = 2500 - 625 + 250 + 525.6            # 2,650.60 USD per A5000 held 24 months from month 1
BUSY_ENERGY = 0.3 * 800 * 1.5 * 0.20 * 24        # 1,728 USD for the 800 hours a month, whichever cards do them
TWENTY_CARDS = 20 * CARD_FIXED + BUSY_ENERGY     # 54,740 USD


def _rows(p) -> dict[str, dict]:
    return {r["cap"]: r for r in p.cap_costs.to_dict("records")}


def _notes(p) -> dict[str, str]:
    return dict(zip(p.baselines["baseline"], p.baselines["note"]))


def test_the_worked_example_budget_costs_the_second_card_it_keeps_out_by_hand():
    p = add_decisions(plan(WORKED))
    assert p.total == pytest.approx(ONE_CARD, abs=0.01)
    (row,) = p.cap_costs.to_dict("records")
    assert (row["cap"], row["limit"], row["unit"], row["status"]) == ("onprem.capex_budget", 2500, "USD", "optimal")
    assert row["total_without"] == pytest.approx(TWO_CARDS, abs=0.01)
    assert row["saving"] == pytest.approx(ONE_CARD - TWO_CARDS, abs=0.01)          # 1,356.26 USD
    assert row["saving_pct"] == pytest.approx(100 * (ONE_CARD - TWO_CARDS) / ONE_CARD, abs=1e-3)
    assert row["binds"] is True and row["note"] == ""
    assert p.solver["decisions"]["solves"]["cap_costs"] == 1


def test_the_cheaper_baselines_now_name_the_limit_that_binds_and_what_it_costs():
    p = plan(WORKED)
    before = _notes(p)
    assert before["all_onprem"] == "costs less than the plan: it drops the capex budget of 2,500 USD, which the plan keeps"
    after = _notes(add_decisions(p))
    named = "costs less than the plan: it drops onprem.capex_budget = 2,500 USD, which alone costs the plan 1,356 USD"
    assert after == {"all_cloud": "", "all_onprem": named, "best_single": named}


def test_a_limit_met_with_room_costs_nothing():
    # 10 kW: two A5000s draw 2 × 400 W; the plan's one card far less
    p = add_decisions(plan(WORKED, overrides={"onprem.power_cap_kw": 10}))
    row = _rows(p)["onprem.power_cap_kw"]
    assert (row["limit"], row["unit"], row["status"], row["binds"]) == (10, "kW", "optimal", False)
    assert row["saving"] == 0 and row["total_without"] == pytest.approx(ONE_CARD, abs=0.01)
    assert _rows(p)["onprem.capex_budget"]["binds"] is True


def test_only_the_minimum_binds_and_each_baseline_names_it_alone():
    # 20 cards required, within a 100,000 USD budget and a maximum of 30: only the minimum costs anything
    p = add_decisions(plan(WORKED, overrides={"onprem.capex_budget": 100000, "constraints.min_units": {"rtx-a5000": 20},
                                              "constraints.max_units": {"rtx-a5000": 30}}))
    assert p.total == pytest.approx(TWENTY_CARDS, abs=0.01)
    rows = _rows(p)
    assert list(rows) == ["onprem.capex_budget", "constraints.min_units.rtx-a5000", "constraints.max_units.rtx-a5000"]
    assert rows["constraints.min_units.rtx-a5000"]["total_without"] == pytest.approx(TWO_CARDS, abs=0.01)
    assert rows["constraints.min_units.rtx-a5000"]["saving"] == pytest.approx(TWENTY_CARDS - TWO_CARDS, abs=0.01)
    assert rows["constraints.min_units.rtx-a5000"]["binds"] is True
    assert [rows[c]["binds"] for c in ("onprem.capex_budget", "constraints.max_units.rtx-a5000")] == [False, False]
    assert [rows[c]["limit"] for c in rows] == [100000, 20, 30]
    # before the re-solves the all-on-prem note had to name the budget and the maximum too (test_baselines_cheaper_note)
    named = ("costs less than the plan: it drops constraints.min_units.rtx-a5000 = 20, which alone costs the plan "
             f"{TWENTY_CARDS - TWO_CARDS:,.0f} USD")
    notes = _notes(p)
    assert notes["all_cloud"] == notes["all_onprem"] == named


def test_limits_that_bind_only_together_are_said_to():
    # the budget and a maximum of one card each keep the second card out: dropping either alone leaves the other
    p = add_decisions(plan(WORKED, overrides={"constraints.max_units": {"rtx-a5000": 1}}))
    rows = _rows(p)
    assert {c: (r["binds"], r["saving"]) for c, r in rows.items()} == {
        "onprem.capex_budget": (False, 0), "constraints.max_units.rtx-a5000": (False, 0)}
    assert _notes(p)["all_onprem"] == (
        "costs less than the plan: it drops onprem.capex_budget = 2,500 USD, constraints.max_units.rtx-a5000 = 1, "
        "which the plan keeps; none of the limits alone costs the plan anything (cap costs), so they bind together")
    # and together they do: without both, the two cards
    assert plan(WORKED, overrides={"onprem.capex_budget": None}).total == pytest.approx(TWO_CARDS, abs=0.01)


def test_a_minimum_that_is_all_that_lets_the_plan_buy_a_card_is_said_to_save_money(tmp_path):
    # the worked example without its budget, and an RTX 4090 (not in onprem.cards) that min_units asks for:
    # 1,600 + 500 host, 1.3 A5000s of work, 500 W busy, 100 W idle. One does all 800 hours (0.9 × 730 × 1.3 = 854):
    # capex 2,100 − resale 0.5 × 2,100 × (1 − 24/48) + maintenance 2,100 × 0.05 × 2 + idle energy 525.60, and
    # busy energy 800 / 1.3 h × 0.4 kW × 1.5 × 0.20 × 24. Without the minimum the card cannot be bought at all:
    # the two A5000s, 7,029.20 USD
    doc = yaml.safe_load(WORKED.read_text(encoding="utf-8"))
    doc["prices"]["source"] = str(WORKED.parent / doc["prices"]["source"])
    del doc["onprem"]["capex_budget"]
    doc["onprem"]["card_overrides"]["rtx-4090"] = {"price": 1600, "currency": "USD", "host_cost_per_card": 500,
                                                   "busy_watts": 500, "idle_watts": 100, "life_years": 4,
                                                   "maintenance_rate_per_year": 0.05}
    doc["workloads"][0]["throughput"]["RTX-4090"] = 1.3
    doc["constraints"] = {"min_units": {"rtx-4090": 1}}
    path = tmp_path / "min-4090.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    one_4090 = 2100 - 525 + 210 + 525.6 + 800 / 1.3 * 0.4 * 1.5 * 0.20 * 24
    assert one_4090 == pytest.approx(4082.9077, abs=1e-4)
    p = add_decisions(plan(path, baselines=False))
    assert p.total == pytest.approx(one_4090, abs=0.01)
    (row,) = p.cap_costs.to_dict("records")
    assert row["cap"] == "constraints.min_units.rtx-4090" and row["total_without"] == pytest.approx(TWO_CARDS, abs=0.01)
    assert row["saving"] == pytest.approx(one_4090 - TWO_CARDS, abs=0.01) and row["binds"] is False
    assert row["note"] == ("rtx-4090 is not in onprem.cards: this minimum is what lets the plan buy it, and without it "
                           f"the plan costs {TWO_CARDS - one_4090:,.0f} USD more; list it in onprem.cards to let the "
                           "plan choose how many")


@pytest.mark.parametrize("field, override", [
    ("onprem.power_cap_kw", {"onprem.power_cap_kw": None}),
    ("onprem.capex_budget", {"onprem.capex_budget": None}),
    ("constraints.max_cloud_share", {"constraints.max_cloud_share": None}),
    ("constraints.max_units.rtx-4090", {"constraints.max_units": {}}),
    ("constraints.min_units.a100-80gb-pcie", {"constraints.min_units": {}}),
])
def test_each_limit_of_startup_hybrid_costs_what_planning_without_it_in_the_scenario_saves(field, override):
    p = _hybrid()
    row = _rows(p)[field]
    without = plan(HYBRID, overrides=override, baselines=False)
    assert row["status"] == without.status == "optimal"
    assert row["total_without"] == pytest.approx(without.total, rel=1e-6)
    assert row["saving"] == pytest.approx(p.total - without.total, abs=max(0.01, 1e-6 * p.total))
    assert row["binds"] is (p.total - without.total > max(0.005, 1e-6 * p.total))


_hybrid_plan = {}


def _hybrid():
    if "p" not in _hybrid_plan:
        _hybrid_plan["p"] = add_decisions(plan(HYBRID, baselines=False), threads=2)
    return _hybrid_plan["p"]


def test_every_limit_of_startup_hybrid_is_listed_in_the_registry_order():
    assert list(_rows(_hybrid())) == ["onprem.power_cap_kw", "onprem.capex_budget", "constraints.max_cloud_share",
                                      "constraints.max_units.rtx-4090", "constraints.min_units.a100-80gb-pcie"]
    units = [r["unit"] for r in _hybrid().cap_costs.to_dict("records")]
    assert units == ["kW", "USD", "share", "cards", "cards"]


def test_a_scenario_without_limits_has_an_empty_table():
    p = add_decisions(plan(WORKED, overrides={"onprem.capex_budget": None}, baselines=False))
    assert p.cap_costs is not None and len(p.cap_costs) == 0
    assert p.solver["decisions"]["solves"]["cap_costs"] == 0


def test_the_cli_prints_the_table_and_the_json_holds_it():
    runner = CliRunner()
    text = runner.invoke(app, ["plan", str(WORKED)], env={"COLUMNS": "200"})
    assert text.exit_code == 0, text.output
    out = text.stdout
    assert out.index("What each decision is worth") < out.index("What each limit costs") < out.index("Runner-up fleet")
    section = out[out.index("What each limit costs"):out.index("Runner-up fleet")]
    assert "onprem.capex_budget" in section and "7,029.2" in section and "1,356.3" in section and "yes" in section
    assert ("  all_onprem: costs less than the plan: it drops onprem.capex_budget = 2,500 USD, which alone costs the "
            "plan 1,356 USD") in section
    data = json.loads(runner.invoke(app, ["plan", str(WORKED), "--format", "json"]).stdout)
    (row,) = data["cap_costs"]
    assert row["cap"] == "onprem.capex_budget" and row["binds"] is True
    assert row["total_without"] == pytest.approx(TWO_CARDS, abs=0.01)
    quiet = json.loads(runner.invoke(app, ["plan", str(WORKED), "--format", "json", "--no-decisions"]).stdout)
    assert quiet["cap_costs"] is None


# ---------------------------------------------------------------------------------------------------
# The baselines' notes, told from the cap costs: only what is known


NOT_KNOWN = ("costs less than the plan: it drops onprem.capex_budget = 2,500 USD, constraints.max_units.rtx-a5000 = 1, "
             "which the plan keeps; which of them binds is not known (a re-solve without one stopped before proving "
             "its answer)")


def test_notes_say_it_is_not_known_when_the_re_solves_stop_before_an_answer():
    # the budget and a maximum of one card bind only together (above), but with a limit of 1 µs no re-solve
    # answers: nothing is known of either, so the note names both as what may explain it, and says so
    p = plan(WORKED, overrides={"constraints.max_units": {"rtx-a5000": 1}})
    assert _notes(p)["all_onprem"] == ("costs less than the plan: it drops the capex budget of 2,500 USD, "
                                       "max_units.rtx-a5000 = 1, which the plan keeps")
    p = add_decisions(p, time_limit=1e-6, threads=1)
    assert set(p.cap_costs["status"]) == {"not_solved"} and list(p.cap_costs["binds"]) == [None, None]
    assert _notes(p)["all_onprem"] == NOT_KNOWN


def test_a_later_run_that_knows_less_does_not_leave_the_earlier_verdict():
    p = add_decisions(plan(WORKED, overrides={"constraints.max_units": {"rtx-a5000": 1}}))
    assert _notes(p)["all_onprem"].endswith("so they bind together")
    assert _notes(add_decisions(p, time_limit=1e-6, threads=1))["all_onprem"] == NOT_KNOWN


def test_the_callers_extra_constraints_are_not_ruled_out():
    # at most one A5000 by the caller's rule, a 100,000 USD budget that never binds: the extra constraint is the
    # cause, and it is not re-solved without, so the note names both as what may explain it
    def one_card_at_most(m):
        m.prob += (m.card("rtx-a5000") <= 1, "one_card_at_most")

    p = plan(WORKED, overrides={"onprem.capex_budget": 100000}, extra_constraints=one_card_at_most)
    assert p.total == pytest.approx(ONE_CARD, abs=0.01)
    before = _notes(p)["all_onprem"]
    assert before == ("costs less than the plan: it drops the capex budget of 100,000 USD, your extra constraints, "
                      "which the plan keeps")
    p = add_decisions(p)
    assert _rows(p)["onprem.capex_budget"]["binds"] is False
    told = ("costs less than the plan: it drops onprem.capex_budget = 100,000 USD, your extra constraints, which the "
            "plan keeps; which of them binds is not known (your extra constraints are not re-solved without)")
    assert _notes(p)["all_onprem"] == told
    assert _notes(add_decisions(p))["all_onprem"] == told   # and so again


def test_notes_are_the_same_however_often_the_decisions_are_added():
    p = add_decisions(plan(WORKED, overrides={"constraints.max_units": {"rtx-a5000": 1}}))
    once = _notes(p)
    assert "so they bind together" in once["all_onprem"]
    assert _notes(add_decisions(p)) == once


def test_a_maximum_below_the_cards_owned_explains_even_all_cloud():
    # three A5000s owned, a maximum of one: the plan must sell two; every baseline keeps all three, so the
    # maximum explains each (all cloud too, though it buys nothing). Without it: planned from the scenario
    overrides = {"onprem.existing": {"rtx-a5000": 3}, "constraints.max_units": {"rtx-a5000": 1}}
    p = plan(WORKED, overrides=overrides)
    without = plan(WORKED, overrides={**overrides, "constraints.max_units": {}}).total
    assert _notes(p)["all_cloud"] == "costs less than the plan: it drops max_units.rtx-a5000 = 1, which the plan keeps"
    p = add_decisions(p)
    row = _rows(p)["constraints.max_units.rtx-a5000"]
    assert row["binds"] is True and row["total_without"] == pytest.approx(without, rel=1e-6)
    assert "all cloud (no new hardware)" in row["dropped_in"]
    assert _notes(p)["all_cloud"] == ("costs less than the plan: it drops constraints.max_units.rtx-a5000 = 1, which "
                                      f"alone costs the plan {p.total - without:,.0f} USD")


def test_each_limit_is_weighed_only_for_the_baselines_it_can_explain():
    # startup-hybrid, read from the scenario: cards rtx-3060-12gb (2 owned), rtx-a5000 (no sourced price: never
    # bought, the plan warns), rtx-4090 (at most 4), a100-80gb-pcie (at least 1); a 6 kW power cap, which the
    # baselines keep; a 60,000 USD budget, which only a baseline that buys cards can break; the cloud share cap
    # and the minimum, which any baseline can break; the RTX 4090 maximum, only one that may buy RTX 4090s
    p = _hybrid()
    assert any("rtx-a5000 has no sourced price" in w for w in p.warnings)
    # (a card's or a cloud kind's baseline keeps the two owned RTX 3060s, which the labels of the other types say)
    owned = " (and owned cards)"
    every = ["all cloud (no new hardware)", "all on-prem (no cloud)", "only rtx-3060-12gb", "only rtx-a5000" + owned,
             "only rtx-4090" + owned, "only a100-80gb-pcie" + owned, "only cloud on-demand" + owned,
             "only cloud spot" + owned]
    buying = ["all on-prem (no cloud)", "only rtx-3060-12gb", "only rtx-4090" + owned, "only a100-80gb-pcie" + owned]
    assert {c: r["dropped_in"] for c, r in _rows(p).items()} == {
        "onprem.power_cap_kw": [], "onprem.capex_budget": buying, "constraints.max_cloud_share": every,
        "constraints.max_units.rtx-4090": ["all on-prem (no cloud)", "only rtx-4090" + owned],
        "constraints.min_units.a100-80gb-pcie": every}


def test_a_minimum_without_which_no_fleet_is_left_is_said_to(tmp_path):
    # only the minimum lets the plan buy the RTX 4090 (onprem.cards is empty) and no work may go to the cloud
    doc = yaml.safe_load(WORKED.read_text(encoding="utf-8"))
    doc["prices"]["source"] = str(WORKED.parent / doc["prices"]["source"])
    doc["onprem"]["cards"] = []
    del doc["onprem"]["capex_budget"]
    doc["onprem"]["card_overrides"]["rtx-4090"] = {"price": 1600, "currency": "USD", "host_cost_per_card": 500,
                                                   "busy_watts": 500, "idle_watts": 100, "life_years": 4,
                                                   "maintenance_rate_per_year": 0.05}
    doc["workloads"][0]["throughput"]["RTX-4090"] = 1.3
    doc["constraints"] = {"min_units": {"rtx-4090": 1}, "max_cloud_share": 0}
    path = tmp_path / "min-4090-only.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    p = add_decisions(plan(path, baselines=False))
    row = _rows(p)["constraints.min_units.rtx-4090"]
    assert (row["status"], row["binds"]) == ("infeasible", False)
    assert row["note"] == ("rtx-4090 is not in onprem.cards: this minimum is what lets the plan buy it, and without it "
                           "the plan has no fleet; list it in onprem.cards to let the plan choose how many")


def test_a_re_solve_without_a_limit_dearer_than_the_plan_is_refused():
    # add_decisions given a constraint the plan was not made with (no A5000 at all): the plan without its budget
    # cannot cost more than the plan, so the re-solves are not the plan's
    def no_cards(m):
        m.prob += (m.card("rtx-a5000") <= 0, "no_cards")

    with pytest.raises(PlannerError, match="hold constraints the plan was not made with"):
        add_decisions(plan(WORKED, baselines=False), extra_constraints=no_cards, threads=1)


# name_binding_caps on tables made here: a plan of 1,000, a baseline of 900 (a difference of 100)


def _told(caps, extra=False, baseline_total=900.0):
    from planner.engine.baselines import name_binding_caps

    table = pd.DataFrame([{"baseline": "all_onprem", "label": "all on-prem (no cloud)", "status": "optimal",
                           "total": baseline_total, "savings": baseline_total - 1000.0, "savings_pct": 0.0,
                           "note": "as before"}])
    rows = [{"cap": cap, "limit": limit, "unit": unit, "status": status, "saving": saving, "binds": binds,
             "dropped_in": ["all on-prem (no cloud)"]} for cap, limit, unit, status, saving, binds in caps]
    return name_binding_caps(table, pd.DataFrame(rows), 1000.0, "USD", 0.005, extra)["note"].iloc[0]


BUDGET = ("onprem.capex_budget", 2500, "USD")
MAXIMUM = ("constraints.max_units.rtx-a5000", 1, "cards")


def test_one_limit_short_of_the_difference_is_not_said_to_bind_together_with_itself():
    # a re-solve stopped at the time limit with a fleet 40 cheaper: at least 40, perhaps the whole 100
    assert _told([(*BUDGET, "feasible", 40.0, True)]) == (
        "costs less than the plan: it drops onprem.capex_budget = 2,500 USD, which the plan keeps; which of them binds "
        "is not known (a re-solve without one stopped before proving its answer)")
    # proved, 40 exactly, and the only limit: the baseline is no relaxation of the plan by this limit alone
    assert _told([(*BUDGET, "optimal", 40.0, True)]).endswith(
        "which of them binds is not known (dropped alone, none saves the plan the whole difference)")


def test_a_limit_that_saves_the_difference_is_named_alone_at_least_where_unproved():
    assert _told([(*BUDGET, "feasible", 100.0, True), (*MAXIMUM, "optimal", 0.0, False)]) == (
        "costs less than the plan: it drops onprem.capex_budget = 2,500 USD, which alone costs the plan at least "
        "100 USD")


def test_proved_limits_short_of_the_difference_bind_together():
    assert _told([(*BUDGET, "optimal", 40.0, True), (*MAXIMUM, "optimal", 0.0, False)]) == (
        "costs less than the plan: it drops onprem.capex_budget = 2,500 USD, which alone costs the plan 40 USD; and "
        "constraints.max_units.rtx-a5000 = 1, which the plan keeps: together they cost it more than any one alone")


def test_a_difference_within_the_solves_agreement_keeps_its_note():
    assert _told([(*BUDGET, "optimal", 0.0, False), (*MAXIMUM, "optimal", 0.0, False)],
                  baseline_total=1000.0 - 0.004) == "as before"


def test_binds_is_shown_yes_no_or_unknown():
    from planner.reports.tables import binds_words

    assert binds_words(pd.Series([True, False, None])) == ["yes", "no", "?"]
    assert binds_words(np.array([True, False])) == ["yes", "no"]            # numpy's own booleans
    assert binds_words([float("nan")]) == ["?"]
