"""What a finance notebook reads from `compare` and `sweep` says what its money is (an audit from a notebook,
2026-12-06): a comparison of plans on different bases gave `total_delta` with `notes == []` (only `same_basis` and
`basis` said so, while `fleetplan compare` prints "not like for like"), and its `costs` and `fleet` had empty attrs
where a Plan's tables carry their currency and basis; a sweep over the discount rate and the horizon gave a `total`
column of present values at different rates with only `attrs["prices"]` and `attrs["warnings"]`.

The words are written out here by hand from the plans' words (engine.result.present_value_words: "present value at
10%/year", "present value at 0%/year, undiscounted") and the CLI's line ("not like for like: a sums 24 months at
0%/year, b 12 months at 10%/year (present values)", tests/planner/test_api.py). The worked example is in USD over
24 months at a discount rate of 0."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner import compare, load_scenario, plan, sweep

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
UNDISCOUNTED = "present value at 0%/year, undiscounted"
AT_10 = "present value at 10%/year"


@pytest.fixture(scope="module")
def worked():
    return load_scenario(WORKED)


@pytest.fixture(scope="module")
def at_0_over_36(worked):
    return plan(worked, horizon_months=36, baselines=False)


# --- compare ---------------------------------------------------------------------------------------------------

def test_compare_on_different_bases_says_not_like_for_like_in_its_notes(worked, at_0_over_36):
    c = compare(at_0_over_36, plan(worked, discount_rate=0.1, horizon_months=24, baselines=False))
    note = "not like for like: a sums 36 months at 0%/year, b 24 months at 10%/year (present values)"
    assert c.notes == [note] and c.basis_note == note
    assert c.to_dict()["notes"] == [note]   # the JSON of `fleetplan compare --format json` holds it too


def test_compare_on_different_bases_labels_each_sides_money_in_attrs(worked, at_0_over_36):
    c = compare(at_0_over_36, plan(worked, discount_rate=0.1, horizon_months=24, baselines=False))
    columns = {"cost_a": f"36 months, {UNDISCOUNTED}", "cost_b": f"24 months, {AT_10}",
               "cost_delta": "b − a, not like for like"}
    expected = {"currency": "USD", "money_columns": columns,
                "money_basis": f"cost_a: 36 months, {UNDISCOUNTED}; cost_b: 24 months, {AT_10}; "
                               "cost_delta: b − a, not like for like"}
    assert c.costs.attrs == expected and c.fleet.attrs == expected


def test_compare_over_different_horizons_at_one_rate_is_not_like_for_like_either(worked, at_0_over_36):
    # the rate's words alone are alike on both sides: the months tell the sides apart
    c = compare(at_0_over_36, worked)
    assert c.notes == ["not like for like: a sums 36 months at 0%/year, b 24 months at 0%/year (present values)"]
    assert c.costs.attrs["money_columns"] == {"cost_a": f"36 months, {UNDISCOUNTED}",
                                              "cost_b": f"24 months, {UNDISCOUNTED}",
                                              "cost_delta": "b − a, not like for like"}


def test_compare_on_one_basis_has_a_plans_attrs_and_no_note(worked):
    c = compare(plan(worked, discount_rate=0.1, baselines=False), plan(worked, discount_rate=0.1, onprem__pue=1.6,
                                                                       baselines=False))
    assert c.notes == [] and c.basis_note is None
    expected = {"currency": "USD", "money_basis": AT_10, "money_columns": dict.fromkeys(["cost_a", "cost_b", "cost_delta"],
                                                                                        AT_10)}
    assert c.costs.attrs == expected and c.fleet.attrs == expected


# --- sweep -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("processes", [1, 2])   # in this process, and in worker processes
def test_a_sweep_over_rate_and_horizon_says_each_rows_basis(processes):
    table = sweep(WORKED, vary={"discount_rate": [0.0, 0.1], "horizon_months": [12, 36]}, processes=processes)
    assert table.attrs["currency"] == "USD"
    assert table.attrs["money_basis"] == "present value at each point's discount_rate"   # `fleetplan sweep`'s title
    assert table.attrs["money_columns"] == {"total": "present value at each point's discount_rate"}
    # rows in cross-product order, the last path fastest: (0, 12), (0, 36), (0.1, 12), (0.1, 36)
    assert list(table["money_basis"]) == [UNDISCOUNTED, UNDISCOUNTED, AT_10, AT_10]
    assert list(table["horizon_months"]) == [12, 36, 12, 36]


def test_a_sweep_at_one_rate_says_it_in_attrs_without_a_column():
    table = sweep(WORKED, vary={"onprem.pue": [1.4, 1.5], "horizon_months": [12, 24]}, processes=1, baselines=True)
    assert {k: table.attrs[k] for k in ("currency", "money_basis", "money_columns")} == {
        "currency": "USD", "money_basis": UNDISCOUNTED,
        "money_columns": {"total": UNDISCOUNTED, "savings_vs_all_cloud": UNDISCOUNTED}}
    assert "money_basis" not in table.columns


def test_a_rejected_point_has_no_basis_and_the_others_keep_theirs():
    # min_units 1 with max_units 0 is refused as a whole (each value plans at another point: min 1 with max 1, max 0
    # with min 0): those rows are errors with no money
    table = sweep(WORKED, vary={"discount_rate": [0.1, 0.0], "constraints.min_units.rtx-a5000": [1, 0],
                                "constraints.max_units.rtx-a5000": [0, 1]}, processes=1)
    assert list(table["status"]) == ["error", "optimal", "optimal", "optimal"] * 2
    assert list(table["money_basis"]) == [None, AT_10, AT_10, AT_10, None, UNDISCOUNTED, UNDISCOUNTED, UNDISCOUNTED]


def test_a_sweep_over_currencies_says_each_points_currency():
    # EUR needs the rate of USD, in which the card and the cloud are priced
    table = sweep(WORKED, vary={"currency": ["USD", "EUR"], "fx.USD": [1.1]}, processes=1)
    assert table.attrs["currency"] == "each point's currency" and list(table["currency"]) == ["USD", "EUR"]
    assert table.attrs["money_basis"] == UNDISCOUNTED
    only_eur = sweep(WORKED, vary={"currency": ["EUR"], "fx.USD": [1.1, 1.2]}, processes=1)
    assert only_eur.attrs["currency"] == "EUR"
