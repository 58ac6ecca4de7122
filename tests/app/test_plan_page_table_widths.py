"""The Plan page's tables on a laptop (1366 × 768) and a phone (390 × 844), what an audit found (2026-12-06): on a
phone the fleet table showed its action and card and a cut "cost, US" header, its cost scrolled out of sight with
nothing saying so; at 1366 px the fleet, break-even and baselines tables were wider than the page and cut their option,
rate and total columns.

Facts from outside the code, measured in Chromium (Playwright) on this dashboard: with the sidebar open at 1366 px
the main area holds a table 904 px wide, an expander 870 px; at 390 px (the sidebar hidden) 356 and 322 px. A table
whose columns add up to more scrolls sideways, and a number column cut at the frame's edge shows none of its figures
(they are right-aligned). Each table here is told by a column only it has; the page passes its shown columns
(`column_order`) and their widths (`column_config`) to st.dataframe, which these tests read.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.test_money_basis_labels import _plan_page

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 180
PAGE_PX, EXPANDER_PX = 904, 870          # 1366 px, the sidebar open
PHONE_PX, PHONE_EXPANDER_PX = 356, 322   # 390 px
# What a character of a grid's 14 px font takes, as the page sizes its columns (fleetplan_dashboard.tables.CHARS_PER_PX,
# about 38 characters in 285 px); a header this much wider than its column is cut ("savings, USD (P…")
PX_PER_CHAR = 7.5

# table -> (a column only it has, drawn in an expander, the column a phone must show whole: its money or key figure)
TABLES = {
    "fleet": ("new_units", False, "cost"),
    "purchase schedule": ("amount", False, "amount"),
    "by plan year": ("paid", False, "paid"),
    "owned cards": ("fixed_costs_avoided", False, "fixed_costs_avoided"),
    "break-even": ("break_even_utilisation", False, "break_even_utilisation"),
    "baselines": ("savings", True, "total"),
    "one card more or fewer": ("alternative_units", True, "total"),
    "decisions": ("total_if_forbidden", True, "increase"),
    "flip points": ("flip_demand", True, "flip_demand"),
    "cap costs": ("total_without", True, "saving"),
    "offers left out": ("reason", True, "gpu"),
}


def _shown(at: AppTest, column: str) -> tuple[list[str], dict[str, dict], list[str]]:
    """(the columns shown in order, their settings, every column of the data) of the table holding `column`."""
    found = [d for d in at.dataframe if column in d.value.columns]
    assert len(found) == 1, [list(d.value.columns) for d in at.dataframe]
    return list(found[0].proto.column_order), json.loads(found[0].proto.columns), list(found[0].value.columns)


def _check_fits(at: AppTest, name: str) -> None:
    column, in_expander, key = TABLES[name]
    order, settings, _ = _shown(at, column)
    assert order, f"{name}: every column shown, none sized"
    widths = [settings.get(c, {}).get("width") for c in order]
    assert None not in widths, f"{name}: a column without a width: {dict(zip(order, widths))}"
    assert sum(widths) <= (EXPANDER_PX if in_expander else PAGE_PX), f"{name}: {sum(widths)} px"
    through_key = sum(widths[:order.index(key) + 1])
    assert through_key <= (PHONE_EXPANDER_PX if in_expander else PHONE_PX), f"{name}: {key} ends at {through_key} px"
    assert not headers_cut(order, settings), f"{name}: headers wider than their columns"


def headers_cut(order: list[str], settings: dict[str, dict]) -> dict[str, tuple[str, int]]:
    """The columns whose header (its label, else the column's name) is wider than the column at PX_PER_CHAR: an audit
    (2026-12-06) found "total if forbidden" in 125 px, "cloud USD/ref-h" and "total, USD (PV)" in 110 px and
    "savings, USD (PV)" in 120 px, each cut by a character or two."""
    found = {}
    for column in order:
        label, width = settings.get(column, {}).get("label") or column, settings.get(column, {}).get("width")
        if isinstance(width, int) and len(label) * PX_PER_CHAR > width:
            found[column] = (label, width)
    return found


@pytest.mark.parametrize("scenario", ["startup-hybrid.yaml", "industrial.yaml"])
def test_the_plan_pages_tables_fit_1366_px_and_show_their_money_on_a_phone(fresh_cache, scenario):
    at = _plan_page(scenario)
    drawn = [name for name, (column, _, _) in TABLES.items() if any(column in d.value.columns for d in at.dataframe)]
    # industrial.yaml owns no cards; its runner-up differs in no card count
    assert set(TABLES) - set(drawn) <= {"owned cards", "one card more or fewer", "flip points"}, drawn
    for name in drawn:
        _check_fits(at, name)


def test_the_fleet_shows_the_card_and_its_cost_first_and_keeps_every_column(fresh_cache):
    at = _plan_page("startup-hybrid.yaml")
    order, settings, data = _shown(at, "new_units")
    assert order[:2] == ["sku", "cost"]
    assert settings["sku"]["width"] + settings["cost"]["width"] <= PHONE_PX
    assert settings["sku"].get("pinned") is True      # the name stays in view while a phone swipes the rest
    # the ten columns the table showed before, in another order; the others a click away (the table's column menu)
    assert sorted(order) == sorted(["action", "sku", "cost", "instance_hours", "units", "existing_units", "new_units",
                                    "provider", "region", "purchase_option"])
    assert set(data) >= set(order) | {"gpu", "sold_units", "switched_off_units"}


def test_the_baselines_table_has_the_expanders_width_and_its_label_total_and_savings_first(fresh_cache):
    at = _plan_page("startup-hybrid.yaml")
    order, settings, data = _shown(at, "savings")
    assert order[:3] == ["label", "total", "savings"] and order[-1] == "note"
    assert "baseline" in data and "baseline" not in order           # the label says which
    assert sum(settings[c]["width"] for c in order) <= EXPANDER_PX     # in the expander's full width, not half


def test_the_serving_table_fits_1366_px_with_its_workload_first():
    # Mélange's toy example (examples/melange-toy.yaml) on the packaged prices: four serving workloads
    text = (ROOT / "examples" / "melange-toy.yaml").read_text(encoding="utf-8").replace(
        "source: offers-melange-toy.csv", "source: snapshot")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    at.file_uploader(key="upload_file").set_value(("serving.yaml", text.encode(), "application/x-yaml")).run()
    assert not at.exception, at.exception
    order, settings, data = _shown(at, "hours_per_week")
    assert order[:4] == ["workload", "sku", "instances", "hours_of_week"]   # which hours of the week, in words
    # the flat profile: each workload's one slot is the whole week
    (table,) = [d.value for d in at.dataframe if "hours_per_week" in d.value.columns]
    assert set(table["hours_of_week"]) == {"all week"} and set(table["hours_per_week"]) == {168.0}
    widths = [settings[c]["width"] for c in order]
    assert sum(widths) <= PAGE_PX and sum(widths[:3]) <= PHONE_PX
    # a click away: the table's column menu
    assert set(data) - set(order) == {"busy_units", "kind", "gpu", "slot", "hours_per_week"}


def test_the_owned_cards_table_shows_their_end_value_after_the_costs_they_avoid(fresh_cache):
    # startup-hybrid.yaml owns two RTX 3060s; the owned table's end_value (the engine's present value of the cards
    # held to the end) is shown beside the other money column, within the page's width (_check_fits)
    at = _plan_page("startup-hybrid.yaml")
    order, settings, _ = _shown(at, "fixed_costs_avoided")
    assert order[:3] == ["card", "fixed_costs_avoided", "end_value"]
    assert settings["end_value"]["label"].startswith("end value, USD (PV)")
    _check_fits(at, "owned cards")
