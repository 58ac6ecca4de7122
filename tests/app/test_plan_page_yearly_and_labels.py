"""The Plan page's yearly figures and its tables' headers, what a browser audit found (2026-12-06):
- the page had present-value totals and a monthly chart only, no figure by plan year, which summary.md ("By plan year
  (EUR): paid (nominal) and present value") and the workbook's yearly sheet have; the Export page's list of the
  workbook's contents did not name that sheet;
- the owned cards' headers read "end value, USD (P" and "age, mo" (cut at their columns' widths);
- the purchase schedule's note was cut ("residual value at the end of the plan (36 months ol") with no "Notes in full"
  under it, as the page's other tables have;
- the runner-up table showed its raw field names ("card_or_offer", "runner_up"), and "One card more or fewer" a bare
  "units" (the plan's count) next to "held".

Oracles: the yearly rows are the plan's monthly table summed by plan year here (months 1–12, 13–24 …; month H+1, the
cards' end value, its own row), not by reports.yearly; a header fits its column by the page's own rule for a grid's
14 px text (tables.CHARS_PER_PX: 7.5 px a character), conservative beside the audit's measure (110 px showed
"end value, USD (P", 17 characters).
"""

from __future__ import annotations

import json

import pytest

from fleetplan_dashboard import state, tables
from tests.app.test_money_basis_labels import _plan_page

# the monthly table's columns that are not money paid: the cards in service and their kW are counts and power
NOT_CATEGORIES = {"month", "total", "discount_factor", "total_discounted", "cards_in_service", "power_kw"}


def _with_column(at, column: str):
    found = [d for d in at.dataframe if column in d.value.columns]
    assert len(found) == 1, [list(d.value.columns) for d in at.dataframe]
    d = found[0]
    return d.value, json.loads(d.proto.columns), list(d.proto.column_order) or list(d.value.columns)


def _headers_too_wide(settings: dict, order: list[str]) -> list[tuple[str, int, int]]:
    """(header, its characters, what its column fits) of each shown header longer than its column holds."""
    wide = []
    for column in order:
        label = settings.get(column, {}).get("label") or column
        width = settings.get(column, {}).get("width")
        assert width is not None, f"{column}: no width"
        if len(label) > int(width * tables.CHARS_PER_PX):
            wide.append((label, len(label), int(width * tables.CHARS_PER_PX)))
    return wide


def _captions(at) -> list[str]:
    return [c.value.replace("\\", "") for c in at.caption]


@pytest.fixture(scope="module")
def industrial():
    state.clear_plan_cache()
    at = _plan_page("industrial.yaml")
    yield at, state.recommended(state.load_file("industrial.yaml")[0]).plan
    state.clear_plan_cache()


def test_the_plan_page_shows_what_is_paid_by_plan_year_summed_from_the_monthly_table(industrial):
    at, plan = industrial
    monthly = plan.monthly
    horizon = int(plan.horizon_months)
    assert horizon == 60
    categories = [c for c in monthly.columns if c not in NOT_CATEGORIES]
    assert "capex" in categories and "residual_value" in categories
    expected: dict[str, dict[str, float]] = {}
    for _, row in monthly.iterrows():
        m = int(row["month"])
        year = str((m - 1) // 12 + 1) if m <= horizon else "end credit"   # industrial: only the cards' end value after
        sums = expected.setdefault(year, {"paid": 0.0, "present_value": 0.0, "capex": 0.0, "credits": 0.0})
        sums["paid"] += float(sum(float(row[c]) for c in categories))
        sums["present_value"] += float(row["total_discounted"])
        sums["capex"] += float(row["capex"])
        sums["credits"] += float(row["residual_value"])
    expected["total"] = {k: sum(v[k] for v in expected.values()) for k in ("paid", "present_value", "capex", "credits")}
    assert list(expected) == ["1", "2", "3", "4", "5", "end credit", "total"]

    data, settings, order = _with_column(at, "paid")
    assert list(data["year"]) == list(expected)
    for year, row in zip(data["year"], data.to_dict("records")):
        for column, value in expected[year].items():
            assert row[column] == pytest.approx(value, rel=1e-9, abs=0.01), (year, column)
    assert expected["total"]["present_value"] == pytest.approx(plan.total, rel=1e-9)   # the plan's total, 2,017,777 USD
    assert data["months"].tolist()[:2] == ["1–12", "13–24"]

    # labelled with the currency and the basis as the page's other money columns, formatted as money
    assert settings["paid"]["label"] == "paid, USD (nominal)"
    assert settings["present_value"]["label"] == "present value, USD"
    assert settings["present_value"]["help"] == "USD, present value at 8%/year"
    assert [settings[c]["label"] for c in ("capex", "credits", "opex")] == [
        "capex, USD (nominal)", "credits, USD (nominal)", "opex, USD (nominal)"]
    assert all(settings[c]["type_config"]["format"] == "%,.0f" for c in ("paid", "present_value", "capex", "credits", "opex"))
    assert order[:4] == ["year", "months", "paid", "present_value"]
    assert _headers_too_wide(settings, order) == []
    # its note under it: what the two totals are
    assert any(c.startswith("Paid: the money paid in those months, nominal (not discounted); present value: the same "
                            "discounted to the plan start (present value at 8%/year), whose total, 2,017,777 USD, is "
                            "what the plan minimises") for c in _captions(at))


def test_a_schedule_note_longer_than_its_column_is_said_in_full_under_it(industrial):
    at, plan = industrial
    data, settings, order = _with_column(at, "amount")
    assert "note" in order
    fits = int(settings["note"]["width"] * tables.CHARS_PER_PX)
    long = [(m, c, n) for m, c, n in zip(data["month"], data["card"], data["note"]) if isinstance(n, str) and len(n) > fits]
    assert long     # the A100s held to the end: "residual value at the end of the plan (60 months old): none"
    said = [c for c in _captions(at) if c.startswith("Notes in full:")]
    for month, card, note in long:
        assert any(f"- **month {month}, {card}**: {note}" in c for c in said), (month, card, note, said)
    assert _headers_too_wide(settings, order) == []


def test_the_owned_runner_up_and_count_tables_headers_fit_and_say_what_they_hold(fresh_cache):
    at = _plan_page("startup-hybrid.yaml")
    # the owned cards: each header within its column, the end value's still naming its currency and basis
    _, owned, order = _with_column(at, "fixed_costs_avoided")
    assert _headers_too_wide(owned, order) == []
    assert owned["end_value"]["label"] == "end value, USD (PV)"
    assert "months" in owned["age_months"]["help"]

    # the runner-up: the page's words, not the fields' names
    _, runner, order = _with_column(at, "runner_up")
    labels = {c: runner.get(c, {}).get("label") for c in order}
    assert labels["card_or_offer"] == "card or offer" and labels["runner_up"] == "runner-up"
    assert labels["recommended"] == "recommended"
    assert not [label for label in labels.values() if label is None or "_" in label], labels
    assert all(runner[c].get("help") for c in order)
    assert _headers_too_wide(runner, order) == []

    # one card more or fewer: the plan's count says whose it is, and what it is to the count asked
    _, counts, order = _with_column(at, "held_units")
    assert counts["units"]["label"] == "plan holds"
    assert "recommended plan" in counts["units"]["help"]
    assert _headers_too_wide(counts, order) == []

    # the Export page names the workbook's yearly sheet among its contents
    at.switch_page("fleetplan_dashboard/pages/export.py").run()
    assert not at.exception, at.exception
    (caption,) = [c for c in _captions(at) if c.startswith("Total ")]
    assert "the yearly sheet (what is paid in each plan year, nominal, and its present value)" in caption
