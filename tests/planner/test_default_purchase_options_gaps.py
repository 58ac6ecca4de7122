"""The default purchase_options (on_demand, spot, reserved_1y, reserved_3y) allow reservations that no packaged
price is: a scenario that leaves the options out got two warnings on every validate and plan, "reserved_1y: no
reserved_1y prices for aws (any region) or azure (any region) in the snapshot prices; …", read as if the user had
chosen them (an audit, 2026-12-06). The options a user lists are warned of as before."""

from __future__ import annotations

from cli_run import run

from planner import load_scenario, plan
from planner.catalog import option_gaps, price_table
from planner.engine.run import checked_scenario
from planner.scenario import apply_overrides

GAP = ("{option}: no {option} prices for aws (any region) or azure (any region) in the snapshot prices; plans use "
       "on_demand/spot only")
LISTED_GAPS = [GAP.format(option="reserved_1y"), GAP.format(option="reserved_3y")]
MINIMAL = "name: minimal\nworkloads: [{name: a, gpu_hours_per_month: 10, reference_gpu: A100-80GB-PCIE}]\n"
LISTED = MINIMAL + "prices: {purchase_options: [on_demand, spot, reserved_1y, reserved_3y]}\n"


def gaps(scenario) -> list[str]:
    return option_gaps(scenario, price_table("snapshot")[0])


def test_the_default_options_are_not_warned_of_and_the_same_options_listed_are():
    assert gaps(load_scenario(MINIMAL)) == []
    assert gaps(load_scenario(LISTED)) == LISTED_GAPS


def test_a_plan_of_a_minimal_scenario_says_nothing_of_reservations():
    warnings = plan(load_scenario(MINIMAL), baselines=False).warnings
    assert not [w for w in warnings if "reserved_" in w]
    assert [w for w in plan(load_scenario(LISTED), baselines=False).warnings if "reserved_" in w] == LISTED_GAPS


def test_validate_says_nothing_of_the_default_and_warns_of_the_options_listed(tmp_path):
    minimal, listed = tmp_path / "minimal.yaml", tmp_path / "listed.yaml"
    minimal.write_text(MINIMAL, encoding="utf-8")
    listed.write_text(LISTED, encoding="utf-8")
    result = run("validate", minimal)
    assert result.exit_code == 0 and "reserved_" not in result.output
    result = run("validate", listed)
    assert result.exit_code == 0
    # each at its item of line 3, `prices: {purchase_options: [on_demand, spot, reserved_1y, reserved_3y]}`: the
    # list opens at column 28, reserved_1y at 46 and reserved_3y at 59
    assert [line for line in result.stderr.splitlines() if "reserved_" in line] == [
        f"warning: {listed}:3:{column}: prices.purchase_options[{item}]: {gap}"
        for column, item, gap in zip((46, 59), (2, 3), LISTED_GAPS)]


def test_overrides_keep_the_default_a_default_and_options_given_by_an_override_are_listed():
    # the dashboard's edits and a sweep's points are overrides: the scenario is made again from a dump
    s = load_scenario(MINIMAL)
    assert gaps(apply_overrides(s, {"horizon_months": 12, "prices.providers": ["aws", "azure"]})) == []
    assert gaps(apply_overrides(s, {"prices": {"source": "snapshot"}})) == []
    given = apply_overrides(s, {"prices.purchase_options": ["on_demand", "spot", "reserved_1y", "reserved_3y"]})
    assert gaps(given) == LISTED_GAPS
    assert gaps(apply_overrides(given, {"horizon_months": 12})) == LISTED_GAPS


def test_a_model_copy_checked_again_keeps_the_default_a_default():
    s = load_scenario(MINIMAL)
    assert gaps(checked_scenario(s.model_copy(update={"horizon_months": 12}))) == []
    assert gaps(checked_scenario(load_scenario(LISTED).model_copy(update={"horizon_months": 12}))) == LISTED_GAPS
