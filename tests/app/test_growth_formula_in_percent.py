"""The sidebar's message on demand grown past the planner's limit writes its formula's growth in the unit of the
slider beside it, percent per month ("(1 + 10 %)^104"), not as the scenario file's share ("(1 + 0.1)^104"), which
read as 0.1 % beside a slider showing 10.0%.

Oracle, by hand (as tests/app/test_growth_problem_widget_words.py): industrial.yaml's pretraining at 50,000
GPU-hours a month, growing 10 % a month for 120 months, passes 10^9 GPU-hours a month in month 105: 50,000 × 1.1^104."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state
from planner import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def test_the_growth_formula_is_in_percent_as_the_slider():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.selectbox(key="base").set_value("file:industrial.yaml").run()
    at.slider(key="edit:demand:pretraining").set_value(50000.0).run()
    at.slider(key="edit:growth:pretraining").set_value(10.0).run()
    at.slider(key="edit:horizon_months").set_value(120).run()
    assert not at.exception, [e.value for e in at.exception]
    (said,) = [e.value.replace("\\", "") for e in at.error if "do not make a valid scenario" in e.value]
    assert "in month 105 of 120 (50000 × (1 + 10 %)^104)" in said, said
    assert "(1 + 0.1)" not in said


def test_a_growth_of_a_fraction_of_a_percent_keeps_its_digits():
    # 9.5 % a month said as 9.5 %, whatever 0.095 × 100 gives in binary floating point; by hand: 1.095^110 =
    # e^(110 × 0.09075) = 21,640 > 20,000 and 1.095^109 = 19,760 < 20,000, so month 111
    s = load_scenario(ROOT / "scenarios" / "industrial.yaml")
    problem = ("workloads.pretraining.growth_per_month: demand of workload 'pretraining' grows above 1,000,000,000 "
               "GPU-hours in month 111 of 120 (50000 × (1 + 0.095)^110); lower growth_per_month or horizon_months")
    said = state.in_widget_words(s, problem)
    assert "(50000 × (1 + 9.5 %)^110)" in said, said
