"""What the library says to a notebook user's common mistakes (a notebook audit of `from planner import plan, compare,
sweep, add_decisions, load_scenario`): each message says what was expected and what to do.

- a Plan given where a scenario is expected (`plan(p)`, `sweep(p, …)`, `load_scenario(p)`): pass its scenario;
- a plan without its decisions (`p.decisions` is None until add_decisions): its repr says so,
  and `decisions` stays None (the code base tests `plan.decisions is None`);
- a plan without baselines: its repr says they were not computed and how to compute them; the table still has no
  columns (how the reports tell a table never solved);
- a misspelt keyword argument of sweep, compare and add_decisions: "did you mean", as plan() says it;
- compare's fleet: an offer rented by the hour has no count (units NaN, the fleet table's rule) on either side.

Oracles, from the scenario files: entry.yaml and mid-research.yaml rent T4 spot by the hour in different regions
(eastus, westus2), so no row of their fleets is on both sides; mid-research.yaml buys RTX 4090 cards (a count)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from planner import add_decisions, compare, load_scenario, plan, sweep
from planner.engine.result import Plan
from planner.errors import PlannerError, ScenarioError

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "scenarios" / "entry.yaml"
MID = ROOT / "scenarios" / "mid-research.yaml"


@pytest.fixture(scope="module")
def entry() -> Plan:
    return plan(ENTRY, baselines=False)


@pytest.fixture(scope="module")
def mid() -> Plan:
    return plan(MID, baselines=False)


# --- a Plan given as a scenario -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("call", "said"), [
    (lambda p: plan(p), "pass its scenario: plan(p.scenario)"),
    (lambda p: sweep(p, {"horizon_months": [12]}, processes=1), "pass its scenario: sweep(p.scenario, vary)"),
    (lambda p: load_scenario(p), "pass its scenario: load_scenario(p.scenario)"),
])
def test_a_plan_given_as_a_scenario_says_to_pass_its_scenario(entry, call, said):
    with pytest.raises(ScenarioError) as caught:
        call(entry)
    assert said in str(caught.value)
    assert "got a Plan" in str(caught.value) and "Plan(" not in str(caught.value)   # not its repr


def test_what_the_message_says_to_pass_plans(entry):
    assert plan(entry.scenario, baselines=False).total == pytest.approx(entry.total)


# --- decisions not computed -----------------------------------------------------------------------------------------

def test_a_plans_repr_says_its_decisions_and_baselines_are_not_computed_and_how_to_compute_them(entry):
    shown = repr(entry)
    assert "decisions: not computed — call add_decisions(plan)" in shown
    assert "baselines: not computed — plan(..., baselines=True) or add_baselines(plan)" in shown
    assert len(shown) < 600                      # a line or two, not every table
    assert entry.decisions is None and entry.flip_points is None and entry.cap_costs is None
    assert entry.runner_up is None               # the `is None` checks of the code base hold


def test_a_plans_repr_after_add_decisions_no_longer_says_not_computed():
    p = add_decisions(plan(ENTRY), threads=1)
    assert "not computed" not in repr(p) and p.decisions is not None


# --- baselines not computed -----------------------------------------------------------------------------------------

def test_a_plan_without_baselines_says_so_in_its_repr_and_its_table_stays_never_solved(entry):
    assert "baselines: not computed — plan(..., baselines=True) or add_baselines(plan)" in repr(entry)
    given = entry.baselines
    assert len(given) == 0 and "baseline" not in given.columns   # how the reports tell a table never solved
    computed = plan(ENTRY)
    assert "baselines: not computed" not in repr(computed) and computed.baselines["total"].notna().any()


# --- misspelt keyword arguments -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("call", "said"), [
    (lambda p: sweep(ENTRY, {"horizon_months": [12]}, baseline=True), "sweep(): unknown keyword argument 'baseline'; "
                                                                      "did you mean baselines=…?"),
    (lambda p: compare(p, p, baseline=False), "compare(): unknown keyword argument 'baseline'; did you mean baselines=…?"),
    (lambda p: add_decisions(p, time_limt=3), "add_decisions(): unknown keyword argument 'time_limt'; did you mean "
                                              "time_limit=…?"),
    (lambda p: plan(ENTRY, baseline=False), "plan(): unknown keyword argument 'baseline'; did you mean baselines=…?"),
])
def test_a_misspelt_keyword_argument_says_did_you_mean(entry, call, said):
    with pytest.raises(PlannerError) as caught:
        call(entry)
    assert str(caught.value).startswith(said)
    assert isinstance(caught.value, TypeError)   # as Python's own refusal was


def test_a_keyword_argument_like_none_lists_those_taken(entry):
    with pytest.raises(TypeError, match=r"add_decisions\(\): unknown keyword argument 'colour' \(it takes solver=, "
                                        r"time_limit=.*more_time=\)"):
        add_decisions(entry, colour=3)


# --- compare: an offer rented by the hour ---------------------------------------------------------------------------

def test_compare_gives_an_hourly_offer_no_count_on_either_side(entry, mid):
    c = compare(entry, mid)
    t4 = c.fleet[c.fleet["region"] == "eastus"].iloc[0]          # entry's T4 spot, rented by the hour; none on b
    assert pd.isna(t4["units_a"]) and pd.isna(t4["units_b"])
    assert (t4["instance_hours_b"], t4["cost_b"]) == (0, 0)
    west = c.fleet[c.fleet["region"] == "westus2"].iloc[0]       # mid-research's T4 spot; none on a
    assert pd.isna(west["units_a"]) and pd.isna(west["units_b"])
    card = c.fleet[c.fleet["sku"] == "rtx-4090"].iloc[0]         # a count on b, none of it on a: 0
    assert card["units_a"] == 0 and card["units_b"] == mid.fleet.set_index("sku").loc["rtx-4090", "units"]
