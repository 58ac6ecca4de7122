"""Sharing a plan: the URL carries the scenario file and the edits (the library's dotted overrides), a
link opens the same plan, and the scenario's own text gets the edits written in with its comments kept.
Also the display helpers of issue 12: break-even caption of an all-cloud plan, the monthly chart's
clipped scale, the Prices page's cost per reference-GPU-hour, and the values planned ahead.

Oracles: scenarios built with `model_copy` on the file's scenario, `planner.engine.plan` on them, and
numbers worked out by hand — never the dashboard's own output read back.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import charts, state, tables
from planner import load_scenario
from planner.engine import plan

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"


def _with_workload(s, name: str, **update):
    return s.model_copy(update={"workloads": tuple(w.model_copy(update=update) if w.name == name else w
                                                   for w in s.workloads)})


@pytest.fixture(scope="module")
def entry():
    return load_scenario(SCENARIOS / "entry.yaml")


# ---------------------------------------------------------------------------------------------------
# The URL


def test_the_url_names_the_file_and_the_overrides_and_reads_back_to_the_same_scenario(entry):
    values = {**state.default_edits(entry), "demand:coursework-and-kaggle": 300.0, "pue": 1.3, "horizon_months": 30,
              "growth:coursework-and-kaggle": 2.5, "providers": ["azure"]}
    params = state.share_params("file:entry.yaml", entry, values)
    assert params == {"scenario": "entry.yaml", "workloads.coursework-and-kaggle.gpu_hours_per_month": "300",
                      "onprem.pue": "1.3", "horizon_months": "30",
                      "workloads.coursework-and-kaggle.growth_per_month": "0.025", "prices.providers": "azure"}
    read, problems = state.values_from_params(entry, params)
    assert problems == []
    expected = _with_workload(entry, "coursework-and-kaggle", gpu_hours_per_month=300.0, growth_per_month=0.025)
    expected = expected.model_copy(update={
        "horizon_months": 30, "onprem": entry.onprem.model_copy(update={"pue": 1.3}),
        "prices": entry.prices.model_copy(update={"providers": ("azure",)})})
    assert state.apply_edits(entry, read) == expected


def test_an_untouched_scenario_has_a_url_with_its_file_only_and_an_upload_has_none(entry):
    assert state.share_params("file:entry.yaml", entry, state.default_edits(entry)) == {"scenario": "entry.yaml"}
    assert state.share_params("upload:mine.yaml:abcd1234", entry, state.default_edits(entry)) == {}


def test_bad_url_parameters_are_named_and_ignored(entry):
    values, problems = state.values_from_params(entry, {
        "scenario": "entry.yaml", "onprem.peu": "1.2", "horizon_months": "thirty", "onprem.capex_budget": "none",
        "prices.providers": "aws,gcp"})
    assert values["capex_budget"] is None                    # "none": no cap
    assert values["horizon_months"] == entry.horizon_months  # the bad number is ignored
    assert values["providers"] == list(entry.prices.providers)
    assert problems == ["onprem.peu=1.2: not one of this page's inputs; did you mean 'onprem.pue'?",
                        "horizon_months=thirty (the sidebar's “Horizon, months”): expected a number",
                        "prices.providers=aws,gcp (the sidebar's “Allowed providers”): gcp not among aws, azure"]
    assert state.base_from_params({"scenario": "entry.yml"})[1][0].endswith("did you mean 'entry.yaml'?")
    assert state.base_from_params({}) == (None, [])


def test_a_link_opens_the_plan_of_its_edits():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["scenario"] = "entry.yaml"
    at.query_params["workloads.coursework-and-kaggle.gpu_hours_per_month"] = "300"
    at.query_params["onprem.electricity_per_kwh"] = "0.3"
    at.run()
    assert not at.exception, at.exception
    base = load_scenario(SCENARIOS / "entry.yaml")
    expected = _with_workload(base, "coursework-and-kaggle", gpu_hours_per_month=300.0)
    expected = expected.model_copy(update={"onprem": base.onprem.model_copy(update={"electricity_per_kwh": 0.3})})
    total = next(m for m in at.metric if m.label.startswith("Total cost"))
    assert total.value == f"{plan(expected, baselines=False).total:,.0f} USD"
    assert at.selectbox(key="base").value == "file:entry.yaml"
    assert at.slider(key="edit:demand:coursework-and-kaggle").value == 300.0

    # a slider change is written back into the URL
    at.slider(key="edit:pue").set_value(1.5).run()
    assert at.query_params["onprem.pue"] in ("1.5", ["1.5"])
    assert at.query_params["workloads.coursework-and-kaggle.gpu_hours_per_month"] in ("300", ["300"])


# ---------------------------------------------------------------------------------------------------
# The scenario's text with the edits written in


@pytest.mark.parametrize("name", ["entry.yaml", "startup-hybrid.yaml", "industrial.yaml", "mid-research.yaml"])
def test_edited_text_keeps_every_comment_and_loads_as_the_edited_scenario(name):
    from planner.scenario import load_scenario_text

    path = SCENARIOS / name
    text, base = path.read_text(), load_scenario(path)
    first = base.workloads[-1].name
    values = {**state.default_edits(base), f"demand:{first}": 777.0, "pue": 1.55, "horizon_months": 48,
              "power_cap_kw": None, "purchase_options": ["on_demand"]}
    out, kept = state.edited_text(text, base, values)
    assert kept
    # the lines not edited stay as they are (but an editor's schema line naming a relative path, which leads nowhere
    # from a download); an edited one's comment, the file's own kept, adds that it was set in the dashboard
    edited_keys = {"gpu_hours_per_month", "pue", "horizon_months", "power_cap_kw", "purchase_options"}
    shown = set(out.splitlines())
    gone = [line for line in text.splitlines() if line not in shown]
    assert all(line.startswith("# yaml-language-server: $schema=../") or line.split(":")[0].strip(" -") in edited_keys
               for line in gone), gone
    assert re.search(r"\n  pue: 1\.55 +# (.+ — )?set in the dashboard \(the file (said [\d.]+|did not set it)\)\n", out), out
    said = re.search(r"\n  pue: ([\d.]+) +(#.*)\n", text)   # each example's pue carries a comment of its own
    assert re.search(rf"\n  pue: 1\.55 +{re.escape(said[2])} — set in the dashboard \(the file said {re.escape(said[1])}\)\n",
                     out), out
    expected = _with_workload(base, first, gpu_hours_per_month=777.0).model_copy(update={
        "horizon_months": 48, "onprem": base.onprem.model_copy(update={"pue": 1.55, "power_cap_kw": None}),
        "prices": base.prices.model_copy(update={"purchase_options": ("on_demand",)})})
    assert load_scenario_text(out, base_dir=SCENARIOS) == expected


def test_edited_text_adds_a_key_the_file_lacks():
    from planner.scenario import load_scenario_text

    text = (SCENARIOS / "entry.yaml").read_text()
    assert "power_cap_kw" not in text
    base = load_scenario(SCENARIOS / "entry.yaml")
    out, kept = state.edited_text(text, base, {**state.default_edits(base), "power_cap_kw": 2.5})
    assert kept and "  power_cap_kw: 2.5  # set in the dashboard (the file did not set it)\n" in out
    assert load_scenario_text(out, base_dir=SCENARIOS).onprem.power_cap_kw == 2.5


# ---------------------------------------------------------------------------------------------------
# Display helpers


def test_an_all_cloud_plan_says_so_instead_of_never_staying_below_all_cloud():
    s = load_scenario(SCENARIOS / "entry.yaml")
    s = s.model_copy(update={"onprem": s.onprem.model_copy(update={"cards": (), "existing": {}})})
    p = plan(s)
    assert tables.all_cloud(p)
    cum = tables.cumulative(p)
    text = tables.break_even_text(p, cum, tables.break_even_month(cum))
    assert "itself all cloud" in text and "never" not in text


def test_the_monthly_chart_cuts_a_capex_spike_and_writes_its_amount():
    monthly = pd.DataFrame({"month": [1, 2, 3, 4, 5], "capex": [100_000.0, 0, 0, 0, 0],
                            "energy": [100.0, 100, 100, 120, 0], "residual_value": [0.0, 0, 0, 0, -40_000]})
    low, high = charts.monthly_range(monthly)
    # running months: 100..120 per month (median 100); month 1 = 100,100 and month 5 = −40,000 are spikes
    assert high == pytest.approx(120 * 1.25) and low == pytest.approx(0.0)
    fig = charts.monthly_chart(monthly, "USD", 4)
    texts = sorted(a.text for a in fig.layout.annotations)
    # the cut bars' amounts name their currency; a credit's arrow points down, its amount unsigned ("↓ -40,000" said
    # down twice: a browser audit, 2026-12-06)
    assert texts == ["↑ 100,100 USD", "↓ 40,000 USD"]
    flat = monthly.assign(capex=0.0, residual_value=0.0)
    assert charts.monthly_range(flat) is None


def test_prices_rank_by_cost_per_reference_gpu_hour():
    w = load_scenario(SCENARIOS / "startup-hybrid.yaml").workloads[0]
    w = w.model_copy(update={"reference_gpu": "A100-80GB-PCIE", "min_gpu_memory_gb": 16,
                             "throughput": {"A100-80GB-PCIE": 1.0, "T4": 0.125, "H100-SXM": 2.0}})
    view = pd.DataFrame({"provider": ["aws", "aws", "azure"], "region": ["r"] * 3, "sku": ["t4", "h100", "small"],
                         "purchase_option": ["on_demand"] * 3, "gpu": ["T4", "H100-SXM", "T4"],
                         "gpu_memory_gb": [16.0, 80.0, 8.0], "usd_per_gpu_hour": [0.5, 4.0, 0.1]})
    ranked = tables.per_reference_hour(view, w)
    # by hand: T4 0.5 / 0.125 = 4.0 USD per A100-hour of work; H100 4.0 / 2.0 = 2.0; the 8 GB T4 does not fit
    assert list(ranked["sku"]) == ["h100", "t4", "small"]
    assert ranked["usd_per_reference_gpu_hour"].iloc[:2].tolist() == pytest.approx([2.0, 4.0])
    assert math.isnan(ranked["usd_per_reference_gpu_hour"].iloc[2])
    assert ranked["usd_per_gpu_hour"].tolist() == [4.0, 0.5, 0.1]   # the raw price stays next to it


def test_values_planned_ahead_follow_the_slider_just_moved(entry):
    values = state.default_edits(entry)
    after = {**values, "horizon_months": values["horizon_months"] + 1}
    last = state.moved(values, after)
    assert last == ("horizon_months", 1)
    ahead = state.next_values(entry, after, last)
    assert [v["horizon_months"] for v in ahead[:3]] == [after["horizon_months"] + k for k in (1, 2, 3)]
    assert {v["horizon_months"] for v in ahead[3:]} >= {after["horizon_months"] - 1}
    step = next(spec.step for spec in state.slider_specs(entry) if spec.name == "pue")
    assert {round(v["pue"], 6) for v in ahead} >= {round(entry.onprem.pue + step, 6)}   # PUE 1.0: no step below
    assert all(v["pue"] >= 1.0 for v in ahead)
