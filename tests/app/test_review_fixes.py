"""The dashboard's review fixes: shared links with values no widget can show, uploads too large to plan
ahead for, scenarios written with explicit keys, workload names with dots, a rejected upload's message
after another scenario is picked, and the uploads a session keeps.

Oracles: the slider ranges of the page (`state.slider_specs`), `planner.engine.plan` on scenarios built
with `model_copy`, and counts worked out by hand — never the dashboard's own output read back.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state
from planner import load_scenario
from planner.engine import plan
from planner.scenario import load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
TIMEOUT = 180


@pytest.fixture(scope="module")
def entry():
    return load_scenario(SCENARIOS / "entry.yaml")


def _app(**params: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _total(at: AppTest) -> str:
    return next(m.value for m in at.metric if m.label.startswith("Total cost"))


def _money(x: float) -> str:
    return f"{x:,.0f} USD"


def _link_warning(at: AppTest) -> str:
    found = [w.value for w in at.warning if w.value.startswith("Parts of the link were ignored")]
    assert found, [w.value for w in at.warning]
    return found[0]


# ---------------------------------------------------------------------------------------------------
# Shared links: a value outside a slider's range, a negative cap


@pytest.mark.parametrize(("path", "text"), [
    ("onprem.pue", "5"),                                                  # PUE slider: 1 to 3
    ("horizon_months", "500"),                                            # 1 to 120
    ("workloads.coursework-and-kaggle.gpu_hours_per_month", "1e8"),       # 0 to 4 × the file's, at least 100
    ("workloads.coursework-and-kaggle.growth_per_month", "-3"),           # -300 % a month
    ("onprem.electricity_per_kwh", "-1"),                                 # 0 to at least 1
])
def test_a_link_value_outside_its_slider_is_ignored_and_named_not_a_crash(entry, path, text):
    at = _app(scenario="entry.yaml", **{path: text})
    assert f"URL {path}={text!r}: outside this page's range" in _link_warning(at)
    assert _total(at) == _money(plan(entry).total)          # the file's own plan


def test_values_from_params_refuses_values_outside_the_slider_ranges(entry):
    specs = {spec.name: spec for spec in state.slider_specs(entry)}
    pue = specs["pue"]
    values, problems = state.values_from_params(entry, {"scenario": "entry.yaml", "onprem.pue": f"{pue.high + 0.5}",
                                                        "horizon_months": f"{int(specs['horizon_months'].high)}"})
    assert values["pue"] == entry.onprem.pue                      # refused: the file's value stays
    assert values["horizon_months"] == 120                        # the top of the range is allowed
    assert problems == [f"URL onprem.pue='{pue.high + 0.5}': outside this page's range, 1 to 3"]


@pytest.mark.parametrize(("path", "edit"), [("onprem.capex_budget", "capex_budget"),
                                             ("onprem.power_cap_kw", "power_cap_kw")])
def test_a_negative_cap_in_a_link_is_refused_not_read_as_no_cap(path, edit):
    hybrid = load_scenario(SCENARIOS / "startup-hybrid.yaml")
    at = _app(scenario="startup-hybrid.yaml", **{path: "-1"})
    assert f"URL {path}='-1': expected 0 or more, or none for no cap" in _link_warning(at)
    assert at.session_state[state.edit_key(edit)] == getattr(hybrid.onprem, edit)   # the file's cap, kept
    assert getattr(hybrid.onprem, edit) is not None


# ---------------------------------------------------------------------------------------------------
# "Download this scenario with the edits" for a scenario written with explicit keys (`? key` / `: value`)

EXPLICIT_KEYS = """\
name: Explicit keys
horizon_months: 24
onprem:
  ? pue
  : 1.4
  cards: [a100-80gb-pcie]
workloads:
  - name: w
    gpu_hours_per_month: 120
    reference_gpu: A10G
"""


def test_edits_to_a_scenario_with_explicit_keys_are_written_out_whole():
    base = load_scenario_text(EXPLICIT_KEYS, origin="explicit.yaml")
    values = {**state.default_edits(base), "electricity_per_kwh": 0.2, "pue": 1.3}
    out, kept = state.edited_text(EXPLICIT_KEYS, base, values)
    assert not kept                                     # the layout is not one edited in place
    expected = base.model_copy(update={"onprem": base.onprem.model_copy(update={"electricity_per_kwh": 0.2,
                                                                                "pue": 1.3})})
    assert load_scenario_text(out, origin="edited.yaml") == expected


def test_the_plan_page_offers_the_edited_explicit_key_scenario_for_download():
    at = _app()
    at.file_uploader(key="upload_file").set_value(("explicit.yaml", EXPLICIT_KEYS.encode(), "application/x-yaml")).run()
    at.slider(key="edit:electricity_per_kwh").set_value(0.2).run()
    at.slider(key="edit:pue").set_value(1.3).run()
    assert not at.exception, [e.value for e in at.exception]
    assert _total(at)
