"""Sliders whose values make no valid scenario are told so in the sidebar's words: demand growing past the planner's
limit over the horizon was said as the scenario file's fields ("workloads.pretraining.growth_per_month: … lower
growth_per_month or horizon_months"; an audit in a real browser), which no label on the page names. The field's path
stays, in brackets, for a reader who edits the file.

Oracle, by hand: industrial.yaml's pretraining at 50,000 GPU-hours a month (its slider's top, 4 × the file's 12,000
rounded up to 1-2-5), growing 10 % a month for 120 months, passes the limit of 10^9 GPU-hours a month when
1.1^(m − 1) > 20,000, i.e. m − 1 > ln 20,000 / ln 1.1 = 9.903 / 0.0953 = 103.9: month 105."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]


def test_growth_past_the_limit_is_said_by_the_sliders_labels():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.selectbox(key="base").set_value("file:industrial.yaml").run()
    at.slider(key="edit:demand:pretraining").set_value(50000.0).run()
    at.slider(key="edit:growth:pretraining").set_value(10.0).run()
    at.slider(key="edit:horizon_months").set_value(120).run()
    assert not at.exception, [e.value for e in at.exception]
    (said,) = [e.value.replace("\\", "") for e in at.error if "do not make a valid scenario" in e.value]
    assert ("“pretraining: growth, % per month” [workloads.pretraining.growth_per_month]: demand of workload "
            "'pretraining' grows above 1,000,000,000 GPU-hours in month 105 of 120") in said
    assert "lower “pretraining: growth, % per month” or “Horizon, months”" in said
    assert "lower growth_per_month" not in said
    # the labels it names are the sliders' own
    labels = [m.value for m in at.markdown] + [s.label for s in at.slider]
    assert "pretraining: growth, % per month" in labels and "Horizon, months" in labels
