"""A sweep checks every varied value before it solves anything (an audit, 2026-12-07): `--vary horizon_months=abc,24`,
a misspelt profile, an unknown card, a comma too many or `currency=EUR` with no rate of USD each became a row with
status error beside the solved points, and `fleetplan sweep` exited 0, so a script read a sweep holding a typo as
done. A value no point can plan is now refused, exit 2, with every such value named as --vary gave it, and nothing
solved; the library's `sweep` raises the same ScenarioError. The expected messages are written out by hand."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from planner import ScenarioError, sweep
from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "scenarios" / "entry.yaml"   # one workload, coursework-and-kaggle; USD; cards rtx-3060-12gb, rtx-4060-ti-16gb
PROFILE = "workloads.coursework-and-kaggle.profile"
KNOWN_CARDS = ("rtx-3060-12gb, rtx-4060-ti-16gb, rtx-3090, rtx-4090, rtx-5090, rtx-a5000, rtx-a6000, rtx-6000-ada, "
               "rtx-pro-6000, l40s, a100-40gb-pcie, a100-80gb-pcie, h100-pcie, h100-nvl, h200-nvl, hgx-h100-8gpu, "
               "hgx-h200-8gpu")

BAD_HORIZON = "horizon_months=abc: expected a whole number, got 'abc'"
BAD_PROFILE = (f"{PROFILE}=busines_hours: expected one of flat, business_hours, deadline_peaks or a .csv file, got "
               "'busines_hours'; did you mean 'business_hours'?")
BAD_CARD = f"onprem.cards=[foo]: onprem.cards[0]: unknown card 'foo' (known cards: {KNOWN_CARDS})"
# with entry.yaml's cards, and where every point of EUR varies them to none (or an unknown one)
NO_RATE = ("currency=EUR: fx: cloud offers and card 'rtx-4060-ti-16gb' are priced in USD; add its rate, e.g. fx: "
           "{USD: <EUR per 1 USD>}")
NO_RATE_WITHOUT_CARDS = "currency=EUR: fx: cloud offers are priced in USD; add its rate, e.g. fx: {USD: <EUR per 1 USD>}"


def said(result) -> str:
    return " ".join(result.stderr.split())


@pytest.mark.parametrize(("vary", "problem"), [
    ("horizon_months=abc,24", BAD_HORIZON),
    (f"{PROFILE}=business_hours,busines_hours", BAD_PROFILE),
    ("onprem.cards=[],[foo]", BAD_CARD),
    ("currency=EUR,USD", NO_RATE),
    ("onprem.electricity_per_kwh=0.1,0.2,", "--vary 'onprem.electricity_per_kwh=0.1,0.2,': value 3 of 3 is empty (a "
                                            "comma too many?); write null for no value, '' for an empty text"),
])
def test_a_value_no_point_can_plan_is_refused_before_anything_is_solved(nothing_solved, vary, problem):
    result = run("sweep", ENTRY, "--vary", vary, "--format", "csv", "--processes", "1")
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert said(result) == f"error: --vary: 1 problem {problem}"


def test_every_bad_value_of_a_sweep_is_named_in_one_run(nothing_solved):
    result = run("sweep", ENTRY, "--vary", "horizon_months=abc,24", "--vary", f"{PROFILE}=business_hours,busines_hours",
                 "--vary", "onprem.cards=[],[foo]", "--vary", "currency=EUR,USD", "--processes", "1")
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert said(result) == f"error: --vary: 4 problems {BAD_HORIZON} {BAD_PROFILE} {BAD_CARD} {NO_RATE_WITHOUT_CARDS}"


def test_the_library_refuses_the_same_values_before_anything_is_solved(nothing_solved):
    with pytest.raises(ScenarioError) as info:
        sweep(ENTRY, {"horizon_months": ["abc", 24], PROFILE: ["business_hours", "busines_hours"],
                      "onprem.cards": [[], ["foo"]], "currency": ["EUR", "USD"]}, processes=1)
    assert info.value.origin == "overrides"
    assert info.value.problems == [BAD_HORIZON, BAD_PROFILE, BAD_CARD, NO_RATE_WITHOUT_CARDS]


def test_a_value_refused_alone_is_planned_where_another_varied_value_makes_it_valid():
    # EUR alone lacks the rate of USD; every point here gives it (0.9 EUR per USD): the sweep plans, in euros
    result = run("sweep", ENTRY, "--vary", "currency=EUR", "--vary", "fx.USD=0.9", "--format", "csv",
                 "--processes", "1")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].startswith("EUR,0.9,") and ",optimal," in result.stdout


def test_a_value_is_named_as_given_beside_a_bad_path(nothing_solved):
    # the path's own problem first, then the values bad alone of the other paths, as --vary wrote them
    result = run("sweep", ENTRY, "--vary", "horizon_mnths=24", "--vary", "onprem.pue=1.0e+400,1.2")
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert said(result) == ("error: --vary: 2 problems horizon_mnths: unknown key 'horizon_mnths' under (top level); "
                            "did you mean 'horizon_months'? onprem.pue=1.0e+400: expected a finite number, got .inf")


def test_values_checked_for_a_scenario_are_not_checked_again_by_its_sweep(monkeypatch):
    # fleetplan sweep checks the values first (to name them as --vary wrote them); its sweep then neither checks each
    # value again nor builds again a point the check built (with one path, a value alone is its point)
    from planner import load_scenario
    from planner.reports.sweep import check_values

    module = sys.modules["planner.reports.sweep"]   # planner.reports.sweep is also the name of the function
    built = []
    real = module.apply_overrides
    monkeypatch.setattr(module, "apply_overrides", lambda s, o: built.append(dict(o)) or real(s, o))
    scenario = load_scenario(ENTRY)
    checked = check_values(scenario, {"onprem.pue": [1.0, 1.2]})
    assert built == [{"onprem.pue": 1.0}, {"onprem.pue": 1.2}]   # each value alone
    built.clear()
    assert list(sweep(scenario, checked, processes=1)["status"]) == ["optimal", "optimal"]
    assert built == []   # each point as the check built it
    sweep(load_scenario(ENTRY), checked, processes=1)   # another scenario (an equal one): checked for it, once
    assert built == [{"onprem.pue": 1.0}, {"onprem.pue": 1.2}]


# --- values as planned, and a value given twice ---------------------------------------------------------------
# A --vary value is YAML read as a scenario file reads it: 0x10 is 16; `1_2`, YAML text, the model reads as 12 (as
# `horizon_months: 1_2` in a file); 12.0 months is 12. The column showed 1_2 beside a plan of 12 months, and
# `12,12` solved one point twice, as two rows.

def test_each_value_is_shown_as_planned():
    result = run("sweep", ENTRY, "--vary", "horizon_months=0x10,1_2,'24',30.0", "--format", "csv", "--processes", "1")
    assert result.exit_code == 0, result.output
    rows = result.stdout.splitlines()[1:]
    assert [row.split(",")[0] for row in rows] == ["16", "12", "24", "30"]
    plain = run("sweep", ENTRY, "--vary", "horizon_months=16,12,24,30", "--format", "csv", "--processes", "1")
    assert plain.stdout == result.stdout   # the same points, planned alike


def test_a_boolean_given_as_yes_is_shown_as_true():
    flag = "workloads.coursework-and-kaggle.interruptible"
    result = run("sweep", ENTRY, "--vary", f"{flag}=yes,false", "--format", "csv", "--processes", "1")
    assert result.exit_code == 0, result.output
    assert [row.split(",")[0] for row in result.stdout.splitlines()[1:]] == ["true", "false"]


def test_the_librarys_column_holds_the_values_planned():
    table = sweep(ENTRY, {"horizon_months": ["1_2", 24.0]}, processes=1)
    assert table["horizon_months"].tolist() == [12, 24] and list(table["status"]) == ["optimal", "optimal"]


@pytest.mark.parametrize(("vary", "problem"), [
    ("horizon_months=12,24,12", "horizon_months=12: given 2 times; give each value once"),
    ("horizon_months=12,1_2,0xC,24", "horizon_months: 12, 1_2 and 0xC are the same value (12); give it once"),
    ("onprem.pue=1,1.2,1.0", "onprem.pue: 1 and 1.0 are the same value (1.0); give it once"),
    ("onprem.existing.rtx-3060-12gb=1,{count: 1}",
     "onprem.existing.rtx-3060-12gb: 1 and {count: 1} are the same value ({count: 1, age_months: 0}); give it once"),
])
def test_values_that_plan_the_same_are_refused_before_anything_is_solved(nothing_solved, vary, problem):
    result = run("sweep", ENTRY, "--vary", vary, "--format", "csv", "--processes", "1")
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert said(result) == f"error: --vary: 1 problem {problem}"


def test_the_library_refuses_a_value_given_twice(nothing_solved):
    with pytest.raises(ScenarioError) as info:
        sweep(ENTRY, {"horizon_months": [12, 24, 12.0]}, processes=1)
    assert info.value.problems == ["horizon_months: 12 and 12.0 are the same value (12); give it once"]
