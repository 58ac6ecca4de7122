"""Every money figure the dashboard shows names its currency and its basis, as the CLI's titles do: present value
at the scenario's discount rate (totals, fleet, costs, baselines, decisions), nominal as paid (the purchase
schedule, the monthly chart, the capex budget), undiscounted rates (break-even, prices per hour); and the fleet says
where its rows fall short of the total: the site's fixed cost, which belongs to no row.

Facts from outside the code: industrial.yaml discounts at 8 %/year and pays fixed_onprem_per_month 12,000 USD in
each of its 60 months, whose present value is Σ_{m=1..60} 12,000 × 1.08^-((m−1)/12) = 599,571.84 USD (worked
by hand: the engine discounts month m by (1 + r)^-((m−1)/12), docs/cost-model.md: d(m)); startup-hybrid.yaml discounts
at 0 and has no site cost.
"""

from __future__ import annotations

import json
from concurrent.futures import wait
from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 180
WAIT_S = 180
INDUSTRIAL_PV = "USD, present value at 8%/year"
STARTUP_PV = "USD, present value at 0%/year, undiscounted"
INDUSTRIAL_SITE_PV = "599,572 USD"   # Σ 12,000 × 1.08^-((m−1)/12), m = 1..60


def _plan_page(scenario: str) -> AppTest:
    """The Plan page of `scenario`, drawn again once what each decision is worth is made."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.query_params["scenario"] = scenario
    at.run()
    assert not at.exception, at.exception
    under_way = [f for key, f in list(state._plans.items()) if key[0] == "decisions" and not f.cancelled()]
    assert not wait(under_way, timeout=WAIT_S).not_done
    at.run()
    assert not at.exception, at.exception
    return at


def _captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption]


def _columns(at: AppTest, first: str) -> dict[str, dict]:
    """The column settings (label, help) of the table whose first column is `first`."""
    found = [d for d in at.dataframe if d.value.columns[0] == first]
    assert found, [list(d.value.columns) for d in at.dataframe]
    return json.loads(found[0].proto.columns)


def _chart(at: AppTest, title_start: str) -> dict:
    found = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    found = [f for f in found if f["layout"]["title"]["text"].startswith(title_start)]
    assert found
    return found[0]


def test_industrial_plan_page_says_present_value_at_8_percent_nominal_and_the_site_cost(fresh_cache):
    at = _plan_page("industrial.yaml")
    captions = _captions(at)
    assert "Totals and savings: USD, present value at 8%/year." in captions   # under the total and baselines
    # the fleet: its basis, and why its rows add up to 599,572 USD less than the total
    assert (f"Cost in {INDUSTRIAL_PV}. The rows add up to the total less the site's fixed cost, {INDUSTRIAL_SITE_PV} "
            "(the scenario's “Fixed on-prem (site) cost, per month”, shared by every on-prem unit).") in captions
    fleet = _columns(at, "action")["cost"]
    assert (fleet["label"], fleet["help"]) == ("cost, USD (PV)", INDUSTRIAL_PV)
    # the purchase schedule is money as paid (88 A100s at 14,000: 1,232,000 USD, not the capex's present value)
    assert _columns(at, "month")["amount"]["label"] == "amount, USD (as paid)"
    assert any(c.startswith("Amounts in USD, nominal: as paid in that month") for c in captions)
    assert any(c.endswith("Costs in USD per hour and per month, nominal: undiscounted.") for c in captions)   # break-even
    costs = _columns(at, "category")["cost"]
    assert (costs["label"], costs["help"]) == ("cost, USD (PV)", INDUSTRIAL_PV)
    baselines = _columns(at, "baseline")
    assert [(baselines[c]["label"], baselines[c]["help"]) for c in ("total", "savings")] == [
        ("total, USD (PV)", INDUSTRIAL_PV), ("savings, USD (PV)", INDUSTRIAL_PV)]
    assert f"Costs, totals and savings in {INDUSTRIAL_PV}." in captions
    headings = [m.value for m in at.markdown]
    for heading in ("**Runner-up**", "**One card more or fewer**", "**What each decision is worth**",
                    "**What each limit costs**"):
        assert any(h.startswith(heading) and INDUSTRIAL_PV + ")" in h for h in headings), heading
    assert "nominal" in _columns(at, "cap")["limit"]["help"]   # the capex budget caps capex as paid

    cumulative = _chart(at, "Cumulative cost")
    # the axis says the currency, the subtitle the basis (a phone's chart cut a longer axis title)
    assert cumulative["layout"]["yaxis"]["title"]["text"] == "USD"
    assert cumulative["layout"]["title"]["subtitle"]["text"].startswith(INDUSTRIAL_PV.removeprefix("USD, ") + ";")
    assert {t["hovertemplate"] for t in cumulative["data"]} == {"%{y:,.0f} " + INDUSTRIAL_PV}
    monthly = _chart(at, "Monthly cost by category")
    assert monthly["layout"]["yaxis"]["title"]["text"] == "USD per month"
    assert monthly["layout"]["title"]["subtitle"]["text"].startswith("as paid;")
    assert {t["hovertemplate"] for t in monthly["data"]} == {"%{y:,.0f} USD, nominal"}
    # month 1's capex bar is cut and labelled: 24 A100s at 14,000 plus that month's running costs, in USD
    assert all(a["text"].endswith(" USD") for a in monthly["layout"]["annotations"])
    assert [n.label for n in at.number_input][0] == "Capex budget for new hardware, USD as paid (empty: no cap)"

    at.switch_page("fleetplan_dashboard/pages/export.py").run()
    assert not at.exception, at.exception
    assert any(c.startswith("Total 2,017,777 USD over 60 months (present value at 8%/year).") for c in _captions(at))

    at.switch_page("fleetplan_dashboard/pages/prices.py").run()
    assert not at.exception, at.exception
    assert any("in USD per hour, undiscounted (a reservation's upfront spread over its term)" in c for c in _captions(at))


def test_startup_hybrid_says_undiscounted_and_has_no_site_cost_note(fresh_cache):
    at = _plan_page("startup-hybrid.yaml")
    captions = _captions(at)
    assert f"Totals and savings: {STARTUP_PV}." in captions
    assert f"Cost in {STARTUP_PV}." in captions           # no site cost: the fleet's rows add up to the total
    assert not any("site's fixed cost" in c for c in captions)
    owned = next(json.loads(d.proto.columns) for d in at.dataframe if "fixed_costs_avoided" in d.value.columns)
    assert owned["fixed_costs_avoided"]["label"] == "avoided, USD (PV)"
    assert owned["fixed_costs_avoided"]["help"].startswith(STARTUP_PV + ":")
    assert any(c.startswith(f"What happens to the cards already owned, and the fixed costs that avoids, in {STARTUP_PV}")
               for c in captions)


def test_compare_says_each_sides_basis_and_the_site_cost(fresh_cache):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    at.switch_page("fleetplan_dashboard/pages/compare.py").run()
    at.selectbox(key="compare_a").set_value("file:industrial.yaml").run()
    at.selectbox(key="compare_b").set_value("file:startup-hybrid.yaml").run()
    assert not at.exception, at.exception
    # different rates and horizons: not like for like, each side's basis said (in `fleetplan compare`'s words)
    assert [w.value for w in at.warning if w.value.startswith("Not like for like")] == [
        "Not like for like: A sums 60 months at 8%/year, B 36 months at 0%/year (present values)."]
    fleets = [json.loads(d.proto.columns)["cost"] for d in at.dataframe if "what" in d.value.columns]
    assert [(f["label"], f["help"]) for f in fleets] == [("cost, USD (PV)", INDUSTRIAL_PV), ("cost, USD (PV)", STARTUP_PV)]
    # industrial's fleet rows fall short of its total by its site cost; the start-up has none
    notes = [c for c in _captions(at) if "site's fixed cost" in c]
    assert len(notes) == 1 and f"site's fixed cost, {INDUSTRIAL_SITE_PV}" in notes[0]
    assert "(the scenario's “Fixed on-prem (site) cost, per month”, shared by every on-prem unit)" in notes[0]
    cumulative = _chart(at, "Cumulative cost")["layout"]
    assert (cumulative["yaxis"]["title"]["text"], cumulative["title"]["subtitle"]["text"]) == (
        "USD", "present value, each at its own rate; each plan's last point: residual value")

    at.selectbox(key="compare_b").set_value("file:industrial.yaml").run()
    assert not at.exception, at.exception
    assert "Totals and costs: USD, present value at 8%/year." in _captions(at)
    assert not [w for w in at.warning if w.value.startswith("Not like for like")]


def _nesting(text: str) -> int:
    """How deep the parentheses of `text` go (1: none inside another)."""
    depth = deepest = 0
    for char in text:
        depth += (char == "(") - (char == ")")
        deepest = max(deepest, depth)
    return deepest


def test_an_undiscounted_basis_reads_without_parentheses_in_parentheses(fresh_cache):
    # an audit, 2026-12-06: the Export caption read "over 36 months (present value at 0%/year (undiscounted))"
    at = _plan_page("startup-hybrid.yaml")
    said = [c for c in _captions(at) + [h.value for h in at.subheader] if "present value" in c]
    at.switch_page("fleetplan_dashboard/pages/export.py").run()
    assert not at.exception, at.exception
    export = [c for c in _captions(at) if c.startswith("Total ")]
    assert len(export) == 1 and export[0].startswith("Total 36,499 USD over 36 months (present value at 0%/year, "
                                                     "undiscounted). ")
    said += export
    assert said and [c for c in said if _nesting(c) > 1] == []
