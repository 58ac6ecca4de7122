"""Workloads whose demand is not `gpu_hours_per_month` on the Plan page: Mélange's toy example (requests per
second, whole instances per slot) and the same example restated in reference GPUs.

Facts from outside the dashboard: Mélange's own answer to its toy example (Griggs et al., 2024;
tyler-griggs/melange-release, melange/config/example.json; examples/melange-toy.yaml) is 3 A10G + 1 A100 =
6.70 USD/h, 4,891 USD for one 730-hour month. Doubling the small-in/small-out bucket to 12 requests/s, worked
by hand over the bucket assignments (A10G serves 2 of its requests/s, A100 20; the other buckets' loads on
one A100: 3/20 + 15/40 + 6/20 = 0.825): all four buckets on A100s need 0.6 + 0.825 = 1.425 → 2 A100s,
7.34 USD/h, against 6 A10G + 1 A100 = 9.73 USD/h and dearer mixes: 5,358.2 USD a month.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state
from planner import load_scenario, plan
from planner.scenario import load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "examples" / "melange-toy.yaml"
TIMEOUT = 180
# bucket -> (requests/s, requests/s one A10G sustains, requests/s one A100 80GB sustains): Mélange's example
BUCKETS = {"small-in-small-out": (6, 2, 20), "small-in-large-out": (3, 1, 20), "large-in-small-out": (15, 5, 40),
           "large-in-large-out": (6, 2, 20)}


def _reference_gpus_text() -> str:
    """The toy example with each bucket's demand in reference GPUs (A100s busy: requests/s ÷ an A100's) and
    speeds relative to the A100 — the same problem (its buckets one model's: one serving_group)."""
    workloads = "".join(
        f"  - name: {name}\n    serving: true\n    serving_group: toy-model\n    placement: single_type\n"
        f"    reference_gpus: {rps / a100!r}\n"
        f"    reference_gpu: A100-80GB-PCIE\n    throughput: {{A10G: {a10g / a100!r}, A100-80GB-PCIE: 1.0}}\n"
        for name, (rps, a10g, a100) in BUCKETS.items())
    return ("name: Mélange toy example in reference GPUs\ncurrency: USD\nhorizon_months: 1\nprices:\n"
            "  source: offers-melange-toy.csv\n  providers: [aws, azure]\n  purchase_options: [on_demand]\n"
            "workloads:\n" + workloads)


@pytest.fixture()
def examples(monkeypatch, tmp_path):
    """The dashboard's scenario folder holding the toy example, its offers and the reference-GPU variant."""
    shutil.copy(TOY, tmp_path / TOY.name)
    shutil.copy(TOY.parent / "offers-melange-toy.csv", tmp_path)
    (tmp_path / "melange-reference-gpus.yaml").write_text(_reference_gpus_text(), encoding="utf-8")
    monkeypatch.setattr(state, "SCENARIO_DIR", tmp_path)
    state.clear_plan_cache()
    yield tmp_path
    state.clear_plan_cache()


def _app(file_name: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    at.selectbox(key="base").set_value(f"file:{file_name}").run()
    assert not at.exception, at.exception
    return at


def _total(at: AppTest) -> str:
    return next(m.value for m in at.metric if m.label.startswith("Total cost"))


def _serving(at: AppTest):
    found = [d.value for d in at.dataframe if list(d.value.columns[:2]) == ["workload", "slot"]]
    assert found, [list(d.value.columns) for d in at.dataframe]
    return found[0]


def test_melange_toy_loads_with_request_sliders_and_its_serving_table(examples):
    expected = plan(TOY)
    assert expected.total == pytest.approx(6.70 * 730)                      # Mélange's answer
    at = _app(TOY.name)
    assert _total(at) == "4,891 USD" == f"{expected.total:,.0f} USD"
    slider = at.slider(key="edit:demand:large-in-small-out")
    assert slider.value == 15.0 and slider.label.endswith("requests per second")
    serving = _serving(at)
    assert list(serving["workload"]) == list(BUCKETS)
    assert list(serving["gpu"]) == ["A10G", "A100-80GB-PCIE", "A100-80GB-PCIE", "A100-80GB-PCIE"]
    assert list(serving["instances"]) == [3, 1, 1, 1]                      # 6 requests/s ÷ 2 per A10G; one shared A100
    assert list(serving["demand"]) == [6, 3, 15, 6]


def test_a_request_slider_re_plans_and_the_link_names_the_requests_field(examples):
    at = _app(TOY.name)
    at.slider(key="edit:demand:small-in-small-out").set_value(12.0).run()
    assert not at.exception, at.exception
    expected = plan(TOY, overrides={"workloads.small-in-small-out.requests_per_second": 12})
    assert expected.total == pytest.approx(2 * 3.67 * 730)                 # two A100s, by hand (docstring)
    assert _total(at) == f"{expected.total:,.0f} USD" == "5,358 USD"
    assert at.query_params["workloads.small-in-small-out.requests_per_second"] == "12"
    assert list(_serving(at)["gpu"]) == ["A100-80GB-PCIE"] * 4


def test_the_toy_example_in_reference_gpus_gives_the_same_answer(examples):
    variant = load_scenario(examples / "melange-reference-gpus.yaml")
    assert plan(variant).total == pytest.approx(6.70 * 730)
    at = _app("melange-reference-gpus.yaml")
    assert _total(at) == "4,891 USD"
    slider = at.slider(key="edit:demand:small-in-small-out")
    assert slider.value == pytest.approx(0.3) and slider.label.endswith("reference GPUs")
    assert list(_serving(at)["instances"]) == [3, 1, 1, 1]
    slider.set_value(0.6).run()                                            # = 12 requests/s: two A100s
    assert not at.exception, at.exception
    assert _total(at) == "5,358 USD"


def test_an_uploaded_serving_scenario_in_requests_per_second_plans():
    # an upload may not name a price file: the toy example on the packaged prices
    text = TOY.read_text(encoding="utf-8").replace("source: offers-melange-toy.csv", "source: snapshot")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    at.file_uploader(key="upload_file").set_value(("serving.yaml", text.encode(), "application/x-yaml")).run()
    assert not at.exception, at.exception
    assert at.selectbox(key="base").value.startswith("upload:serving.yaml:")
    assert _total(at) == f"{plan(load_scenario_text(text, origin='serving.yaml')).total:,.0f} USD"
    assert at.slider(key="edit:demand:small-in-small-out").value == 6.0
    assert len(_serving(at)) == 4


def test_demand_edits_use_each_workloads_own_field():
    s = load_scenario(TOY)
    values = {**state.default_edits(s), "demand:large-in-large-out": 9.0}
    assert state.edits_to_overrides(s, values) == {"workloads.large-in-large-out.requests_per_second": 9.0}
    shared = state.share_params("file:melange-toy.yaml", s, values)
    assert shared["workloads.large-in-large-out.requests_per_second"] == "9"
    back, problems = state.values_from_params(s, shared)
    assert not problems and back["demand:large-in-large-out"] == 9.0
    assert state.apply_edits(s, values).workloads[3].requests_per_second == 9.0
    spec = next(x for x in state.slider_specs(s) if x.name == "demand:large-in-small-out")
    assert spec.low == 0 and spec.high >= 4 * 15 and spec.step <= 15 / 10


def test_an_all_rented_plan_has_no_runner_up_and_the_page_says_why():
    from fleetplan_dashboard import jobs, tables
    from planner import add_decisions

    # the toy example rents on-demand instances only: no card or reservation to change, so no other fleet
    p = add_decisions(plan(TOY))
    made = jobs.decisions_job(plan(TOY, baselines=False), "highs")
    assert made.runner_up == p.runner_up and not made.error
    kind, text = tables.verdict(p.total, "USD", made)
    assert kind == "none" and text.startswith("No runner-up") and "no cards or reservations" in text
