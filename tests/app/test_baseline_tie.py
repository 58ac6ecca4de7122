"""A baseline that costs what the plan costs is said to, in grey: the Plan page showed "-0 USD: cheaper than the plan
(its help says why)" in red (an audit, 2026-12-06) for startup-hybrid.yaml with no cloud provider allowed.

The fact from outside the code: with no cloud provider, the plan may only hold cards, which is what the all on-prem
baseline solves (the same scenario with on-prem capacity only, the capex budget and mix caps dropped): the plan's
fleet is one the baseline may hold, so the baseline costs at most the plan's total, and less only where a dropped cap
binds the plan; none does here: the engine's two totals (checked below) agree to the solvers' round-off, -5e-11 USD
apart, which printed as "-0".
"""

from __future__ import annotations

from pathlib import Path

from streamlit.proto.Metric_pb2 import Metric as MetricProto
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables
from planner import load_scenario, plan

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"


def test_a_baseline_as_dear_as_the_plan_says_same_as_the_plan_in_grey_and_never_minus_zero():
    s = load_scenario(STARTUP)
    s = s.model_copy(update={"prices": s.prices.model_copy(update={"providers": ()})})
    oracle = plan(s)
    onprem = oracle.baselines.set_index("baseline").loc["all_onprem"]
    assert abs(onprem["total"] - oracle.total) < 0.005            # equal, as said above

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["scenario"] = "startup-hybrid.yaml"
    at.query_params["prices.providers"] = ""                       # the audit's link: no cloud provider
    at.run()
    assert not at.exception, at.exception
    total = next(m for m in at.metric if m.label.startswith("Total cost"))
    card = next(m for m in at.metric if m.label == "All on-prem")
    assert total.value == card.value == f"{oracle.total:,.0f} USD"
    assert card.proto.delta == "same as the plan"
    assert card.proto.color == MetricProto.MetricColor.GRAY
    assert "costs less than the plan" not in card.proto.help
    assert not [m.proto.delta for m in at.metric if m.proto.delta.startswith("-0")]
    # the baselines table shows its saving as 0, not as the -5e-11 that read "-0"
    table = next(d.value for d in at.dataframe if "savings" in d.value.columns).set_index("baseline")
    words = tables.BASELINE_WORDS["all_onprem"]                   # the page names each baseline in words
    assert table.loc[words, "savings"] == 0.0 and table.loc[words, "savings_pct"] == 0.0
