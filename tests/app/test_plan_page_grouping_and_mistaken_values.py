"""The Plan page tells what the CLI and `fleetplan validate` tell: the bound a grouped profile puts on the total,
under the total; a value that looks typed in another unit, at once and in sight when a file is uploaded (not the
last line of a closed box); "never" where no utilisation pays a card off; the assumptions as a sentence.

Oracles: the plan's own `profile_grouping` figures written into the sentence by hand (the format the CLI
prints), `planner.plan` on the same file, line and column of the uploaded value counted by hand (as
`fleetplan validate` prints them), and the scenario model's defaults — never the page's text read back.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit import dataframe_util
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Metric, Warning

from fleetplan_dashboard import state
from planner import load_scenario, plan
from planner.scenario import load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 180
OFFERS = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,vcpus,"
          "memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n"
          "aws:us-east-1:g5.xlarge:on_demand,aws,us-east-1,g5.xlarge,on_demand,A10G,True,A10G,1.0,24.0,4.0,16.0,1.0,0.0,"
          "USD,0,,2026-07-20,test,\n")   # one test offer, not a shipped price
# 168 distinct hourly weights (37 is prime to 168, so 37·h mod 168 takes every value once): more than the 24
# blocks a profile is grouped into by default
WEIGHTS = [100 + (h * 37) % 168 for h in range(168)]
GROUPED = """name: grouped profile
horizon_months: 3
prices: {source: offers.csv, providers: [aws], purchase_options: [on_demand]}
onprem:
  electricity_per_kwh: 0.2
  availability: 0.9
  custom_cards:
    a5k: {gpu: RTX-A5000, price: 1500, busy_watts: 400, idle_watts: 100, life_years: 4}
workloads:
  - name: train
    gpu_hours_per_month: 3000
    reference_gpu: A10G
    throughput: {A10G: 1.0, a5k: 1.0}
    profile: weights.csv
"""
# the entry scenario with its electricity price in US cents: line 17 is `  electricity_per_kwh: 120`, the value
# in column 24 (2 spaces and the 21 characters of "electricity_per_kwh: " before it)
CENTS = (ROOT / "scenarios" / "entry.yaml").read_text(encoding="utf-8").replace(
    "electricity_per_kwh: 0.15 ", "electricity_per_kwh: 120  ")
CENTS_WARNING = ("onprem.electricity_per_kwh: 120 USD a kWh is more than grid electricity costs anywhere (under 1 USD "
                 "a kWh); expected USD per kWh, such as 0.12: if it is in cents, write 1.2; if per MWh, 0.12")


def _unescaped(markdown: str) -> str:
    """Markdown source as it reads on the page: a backslash-escaped sign shows as the sign."""
    return re.sub(r"\\(.)", r"\1", markdown)


# ---------------------------------------------------------------------------------------------------
# A grouped profile: its bound under the total


@pytest.fixture()
def grouped_folder(monkeypatch, tmp_path):
    (tmp_path / "offers.csv").write_text(OFFERS, encoding="utf-8")
    (tmp_path / "weights.csv").write_text("weight\n" + "\n".join(map(str, WEIGHTS)) + "\n", encoding="utf-8")
    (tmp_path / "grouped.yaml").write_text(GROUPED, encoding="utf-8")
    monkeypatch.setattr(state, "SCENARIO_DIR", tmp_path)
    state.clear_plan_cache()
    yield tmp_path
    state.clear_plan_cache()


def test_a_grouped_profiles_bound_on_the_cost_error_is_shown_under_the_total(grouped_folder):
    expected = plan(load_scenario(grouped_folder / "grouped.yaml"))
    g = expected.profile_grouping
    assert (g["weight_classes"], g["slots"], g["refined_from"]) == (168, 24, [])   # 24 blocks, bound under 1 %
    sentence = (f"Profile grouped: 168 distinct hourly weights in 24 load-duration blocks (profile_slots; 168 = exact); "
                f"the exact optimum is at most {g['error_bound']:,.0f} USD ({g['error_bound_pct']:.2f} %) below this "
                f"total (lower bound {g['lower_bound']:,.0f}).")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="base").value == "file:grouped.yaml"
    captions = [_unescaped(c.value) for c in at.caption]
    assert sentence in captions, captions
    # under the total: right after the caption that says what the totals are
    assert captions[captions.index(sentence) - 1].startswith("Totals and savings:")


# ---------------------------------------------------------------------------------------------------
# An upload with its electricity price in cents


@pytest.fixture(scope="module")
def cents_upload():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    at.file_uploader(key="upload_file").set_value(("entry-cents.yaml", CENTS.encode(), "application/x-yaml")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="base").value.startswith("upload:entry-cents.yaml:")
    return at


@pytest.fixture(scope="module")
def cents_plan():
    return plan(load_scenario_text(CENTS, origin="entry-cents.yaml"))


def test_an_uploaded_price_in_cents_is_warned_of_in_sight_placed_as_validate_places_it(cents_upload):
    shown = [w.value.replace("\\", "") for w in cents_upload.warning   # as read: without tables.plain's escapes
             if CENTS_WARNING in w.value.replace("\\", "")]
    assert len(shown) == 1, [w.value for w in cents_upload.warning]
    assert f"entry-cents.yaml:17:24: {CENTS_WARNING}" in shown[0]
    order = list(cents_upload.main)                            # the page's elements in the order drawn
    warning = next(i for i, n in enumerate(order) if isinstance(n, Warning) and CENTS_WARNING in n.value.replace("\\", ""))
    total = next(i for i, n in enumerate(order) if isinstance(n, Metric) and n.label.startswith("Total cost"))
    assert warning < total                                    # above the total
    for box in cents_upload.expander:                         # and in no closed box
        assert not any(CENTS_WARNING in c.value for c in box.code), box.label


def test_the_warnings_box_holds_the_others_under_a_label_that_lists_no_kinds(cents_upload, cents_plan):
    assert CENTS_WARNING in cents_plan.warnings
    others = [w for w in cents_plan.warnings if w != CENTS_WARNING]
    assert others and all("undated prices" in w for w in others)   # the snapshot's undated T4 spot price
    label = f"{len(others)} warning{'s' if len(others) > 1 else ''}: what this plan rests on that needs a look"
    box = next(b for b in cents_upload.expander if "needs a look" in b.label)
    assert box.label == label
    assert [c.value for c in box.code] == ["\n".join(others)]


def test_a_card_that_never_pays_off_shows_never_not_inf_percent(cents_upload, cents_plan):
    # at 120 USD a kWh an RTX 3060's 170 W cost 20 USD an hour, more than any cloud T4 hour: no utilisation pays
    assert len(cents_plan.break_even) and (cents_plan.break_even["break_even_utilisation"] == float("inf")).all()
    table = next(d for d in cents_upload.dataframe if "break_even_utilisation" in d.value.columns)
    assert (table.value["break_even_utilisation"] == float("inf")).all()             # a number, for sorting
    display_values = table.proto.arrow_data.styler.display_values
    assert display_values, "no text given for the shares: a format of the column draws inf as 'inf%'"
    shown = dataframe_util.convert_arrow_bytes_to_pandas_df(display_values)
    assert list(shown["break_even_utilisation"]) == ["never"] * len(cents_plan.break_even)


def test_the_assumptions_read_as_a_sentence_without_backslashes(cents_upload):
    # entry.yaml sets none of them: the model's defaults (purchases every 3 months, straight-line resale at half
    # the book value, owned cards may be sold and switched off)
    # entry.yaml's fx rate first, as summary.md's row fx words it
    assert ("Units apply to cards and reservations; rented capacity is counted in hours used. Assumptions: 1 CNY = "
            "0.13749 USD (fx); cards bought every 3 months, retired at end of life and sold at 0.5 × straight-line book "
            "value; owned cards may be sold or switched off (the scenario's “Cards bought every … months”, “Resale value "
            "of cards”, “Owned cards may be sold” and “Owned cards may be switched off”).") in [
        c.value for c in cents_upload.caption]


def test_an_edited_value_is_warned_of_as_edited_and_a_plausible_one_not_at_all(cents_upload):
    def shown() -> str:
        assert not cents_upload.exception, [e.value for e in cents_upload.exception]
        return "\n".join(w.value.replace("\\", "") for w in cents_upload.warning)   # as read

    cents_upload.slider(key="edit:electricity_per_kwh").set_value(12.0).run()
    # 12 USD a kWh is still above the 2 USD a price in cents or per MWh stands out by: an edit, not the file's line
    assert ("entry-cents.yaml (edited): onprem.electricity_per_kwh: 12 USD a kWh is more than grid electricity costs "
            "anywhere (under 1 USD a kWh); expected USD per kWh, such as 0.12: if it is in cents, write 0.12; if per "
            "MWh, 0.012") in shown()
    assert CENTS_WARNING not in shown()
    cents_upload.slider(key="edit:electricity_per_kwh").set_value(1.2).run()   # the warning's "in cents" value
    assert "electricity_per_kwh" not in shown()
    cents_upload.slider(key="edit:electricity_per_kwh").set_value(120.0).run()   # the file's value: its place again
    assert f"entry-cents.yaml:17:24: {CENTS_WARNING}" in shown()
