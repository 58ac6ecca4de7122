"""The Compare page's "Inputs that differ": each value as the rest of the dashboard says it (an audit, 2026-12-06:
a capex budget cleared on the Plan page read `NaN`, and 60,000 read `60000.0`).

Oracle by hand: startup-hybrid.yaml sets `capex_budget: 60000` and `power_cap_kw: 6`; the Plan page's budget box
emptied means no cap (its label: "empty: no cap"), and a power cap of 2.5 kW typed in its box."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables
from planner import compare, load_scenario
from planner.reports.compare import input_text
from tests.app.test_plan_page_table_widths import PAGE_PX, PHONE_PX, headers_cut

ROOT = Path(__file__).resolve().parents[2]
COMPARE_PAGE = "fleetplan_dashboard/pages/compare.py"


def test_a_cleared_budget_reads_no_cap_and_money_reads_with_thousands_separators():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.number_input(key="edit:capex_budget").set_value(None).run()
    at.number_input(key="edit:power_cap_kw").set_value(2.5).run()
    at.switch_page(COMPARE_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    inputs = next(d.value for d in at.dataframe if "path" in d.value.columns)
    a_col = next(c for c in inputs.columns if c.startswith("A: "))
    b_col = next(c for c in inputs.columns if c.startswith("B: "))
    rows = {path: (a, b) for path, a, b in zip(inputs["path"], inputs[a_col], inputs[b_col])}
    assert rows == {"onprem.capex_budget": ("60,000", "(not set: no cap)"), "onprem.power_cap_kw": ("6", "2.5")}


def test_input_values_read_as_typed_numbers_and_unset_fields_say_what_they_mean():
    # the planner's words (reports.compare.input_text), which the page shows through Comparison.inputs_shown
    assert input_text("onprem.pue", 2.1499999999999995) == "2.15"   # a slider's step sum
    assert input_text("onprem.electricity_per_kwh", 0.12) == "0.12"
    assert input_text("horizon_months", 36) == "36"
    assert input_text("prices.regions", None) == "(not set: all regions)"
    assert input_text("workloads.llm-finetune.framework", None) == "(not set)"
    assert input_text("prices.providers", "[aws, azure]") == "[aws, azure]"


def test_the_page_says_a_value_as_the_cli_does_true_false_and_not_set():
    # the page had its own copy of the words: interruptible read False/True and an fx rate one side lacks "none",
    # where `fleetplan compare` says false/true and "(not set)"
    a = load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml")
    w = a.workloads[0]
    b = a.model_copy(update={"workloads": (w.model_copy(update={"interruptible": not w.interruptible}),
                                           *a.workloads[1:]),
                             "fx": {**a.fx, "EUR": 1.1}})
    shown = tables.inputs_table(compare(a, b, baselines=False).inputs_shown).set_index("path")
    flag = f"workloads.{w.name}.interruptible"
    assert tuple(shown.loc[flag, ["a", "b"]]) == (str(w.interruptible).lower(), str(not w.interruptible).lower())
    assert tuple(shown.loc["fx.EUR", ["a", "b"]]) == ("(not set)", "1.1")


def test_the_compare_page_shows_the_planners_words_for_a_key_one_side_lacks():
    # startup-hybrid.yaml quotes card_overrides (a100-80gb-pcie: price 14,000) where entry.yaml sets none: the page
    # said "none" (its own copy of the words), `fleetplan compare` "(not set)"
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.switch_page(COMPARE_PAGE).run()
    at.selectbox(key="compare_a").set_value("file:startup-hybrid.yaml").run()
    at.selectbox(key="compare_b").set_value("file:entry.yaml").run()
    assert not at.exception, [e.value for e in at.exception]
    inputs = next(d.value for d in at.dataframe if "path" in d.value.columns)
    b_col = next(c for c in inputs.columns if c.startswith("B: "))
    rows = dict(zip(inputs["path"], inputs[b_col]))
    assert rows["onprem.card_overrides.a100-80gb-pcie.price"] == "(not set: the catalog's value)", rows


def test_at_1366_px_the_inputs_names_and_every_header_show_whole():
    # the audit (2026-12-06): "prototyping: GPU-hours per month" (32 characters, 240 px at 7.5 px each) cut at 176 px,
    # "B: Current edits of startup-hybrid.yaml" at 90 px, "cost, USD (PV)" (105 px) at 90 px
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.slider(key="edit:demand:prototyping").set_value(3000.0).run()
    at.switch_page(COMPARE_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    (inputs,) = [d for d in at.dataframe if "path" in d.value.columns]
    order = list(inputs.proto.column_order) or list(inputs.value.columns)
    settings = json.loads(inputs.proto.columns)
    assert "prototyping: GPU-hours per month" in list(inputs.value["input"])
    assert settings["input"]["width"] >= 240
    assert not headers_cut(order, settings)
    assert sum(settings[c]["width"] for c in order) <= PAGE_PX
    assert sum(settings[c]["width"] for c in order[:3]) <= PHONE_PX   # on a phone the values beside the pinned name
    assert not [c.value for c in at.caption if c.value.startswith("Inputs in full")]
    b_col = next(c for c in inputs.value.columns if c.startswith("B: "))
    assert settings[b_col]["label"] == "B" and settings[b_col]["help"] == "B: Current edits of startup-hybrid.yaml"
    fleets = [d for d in at.dataframe if "instance_hours" in d.value.columns]
    assert len(fleets) == 2
    for fleet in fleets:
        order, settings = list(fleet.proto.column_order), json.loads(fleet.proto.columns)
        assert not headers_cut(order, settings)
        assert sum(settings[c]["width"] for c in order) <= 443   # half the page at 1366 px
