"""The dashboard's pages under `streamlit.testing.v1.AppTest`: every number shown must be the engine's
for the same inputs, widgets must re-plan, bad uploads and infeasible settings must be explained.

The oracle is `planner.engine.plan` called here on scenarios built independently of the dashboard
(`model_copy` on the file's scenario), never a number read back from the page.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables
from planner import load_scenario
from planner.engine import plan
from planner.errors import InfeasibleError
from planner.scenario import load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = ROOT / "scenarios" / "startup-hybrid.yaml"
TIMEOUT = 180


@pytest.fixture(scope="module")
def base():
    return load_scenario(DEFAULT)


@pytest.fixture(scope="module")
def base_plan(base):
    return plan(base)


def _app() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    assert not at.exception, at.exception
    return at


def _metric(at: AppTest, label_start: str):
    found = [m for m in at.metric if m.label.startswith(label_start)]
    assert found, [m.label for m in at.metric]
    return found[0]


def _money(x: float) -> str:
    return f"{x:,.0f} USD"


def _with_workload(s, name: str, **update):
    return s.model_copy(update={"workloads": tuple(w.model_copy(update=update) if w.name == name else w
                                                   for w in s.workloads)})


# ---------------------------------------------------------------------------------------------------
# Plan page


def test_default_scenario_shows_the_engines_fleet_and_totals(base_plan):
    at = _app()
    assert at.selectbox(key="base").value == "file:startup-hybrid.yaml"
    assert _metric(at, "Total cost, 36 months").value == _money(base_plan.total)
    b = base_plan.baselines.set_index("baseline")
    assert _metric(at, "All cloud").value == _money(b.loc["all_cloud", "total"])
    assert _metric(at, "All on-prem").value == _money(b.loc["all_onprem", "total"])
    assert _metric(at, "All cloud").delta.startswith(f"the plan saves {_money(b.loc['all_cloud', 'savings'])}")
    best = b.loc["best_single"]
    assert _metric(at, best["label"].capitalize()).value == _money(best["total"])

    fleet = at.dataframe[0].value
    expected = base_plan.fleet
    assert sorted(fleet["sku"]) == sorted(expected["sku"])
    for row in expected.itertuples():
        shown = fleet[(fleet["sku"] == row.sku) & (fleet["purchase_option"] == row.purchase_option)].iloc[0]
        assert shown["cost"] == pytest.approx(row.cost, rel=1e-9)
        assert shown["instance_hours"] == pytest.approx(row.instance_hours, rel=1e-9)
        onprem = row.provider == "onprem"
        owned_action = "sell (owned)" if row.sold_units == row.existing_units > 0 else "keep (owned)"
        assert shown["action"] == (("buy" if row.new_units > 0 else owned_action) if onprem else "rent on-demand")
    # the start-up's two RTX 3060s are sold (plan.owned), and the headline card says so
    card = _metric(at, "Owned cards")
    assert card.value == "0 of 2 kept"

    costs = next(d.value for d in at.dataframe if list(d.value.columns) == ["category", "cost"])
    assert costs.set_index("category").loc["Total", "cost"] == pytest.approx(base_plan.total, rel=1e-12)
    assert costs[costs["category"] != "Total"]["cost"].sum() == pytest.approx(base_plan.total, rel=1e-9)
    # the price banner names the snapshot and its age; the packaged prices are months old
    banner = [w.value for w in at.warning] + [i.value for i in at.info]
    assert any("packaged price snapshot" in t and base_plan.prices["as_of"] in t and "days ago" in t for t in banner)
    assert at.get("plotly_chart"), "the charts are drawn"


def test_moving_a_demand_slider_up_raises_the_total(base, base_plan):
    at = _app()
    slider = at.slider(key="edit:demand:prototyping")
    assert slider.value == 1500.0
    slider.set_value(3000.0).run()
    assert not at.exception
    expected = plan(_with_workload(base, "prototyping", gpu_hours_per_month=3000.0))
    assert expected.total > base_plan.total
    assert _metric(at, "Total cost").value == _money(expected.total)

    at.slider(key="edit:growth:llm-finetune").set_value(5.0).run()
    higher = plan(_with_workload(_with_workload(base, "prototyping", gpu_hours_per_month=3000.0),
                                 "llm-finetune", growth_per_month=0.05))
    assert higher.total > expected.total
    assert _metric(at, "Total cost").value == _money(higher.total)

    at.button[0].click().run()   # reset to the file's values
    assert at.slider(key="edit:demand:prototyping").value == 1500.0
    assert _metric(at, "Total cost").value == _money(base_plan.total)


def test_site_and_cloud_inputs_re_plan(base):
    at = _app()
    at.slider(key="edit:electricity_per_kwh").set_value(0.30).run()
    at.multiselect(key="edit:providers").set_value(["aws"]).run()
    assert not at.exception
    s = base.model_copy(update={"onprem": base.onprem.model_copy(update={"electricity_per_kwh": 0.30}),
                                "prices": base.prices.model_copy(update={"providers": ("aws",)})})
    assert _metric(at, "Total cost").value == _money(plan(s).total)


def test_an_infeasible_setting_shows_the_explanation(base):
    at = _app()
    at.number_input(key="edit:power_cap_kw").set_value(0.0).run()
    assert not at.exception
    with pytest.raises(InfeasibleError) as exc:
        plan(base.model_copy(update={"onprem": base.onprem.model_copy(update={"power_cap_kw": 0.0})}))
    errors = [e.value.replace("\\", "") for e in at.error]   # as read: without tables.plain's escapes
    # the engine's "recommended: " left out, its first letter a capital (tables.without_plan_label)
    said = tables.infeasible_words(str(exc.value)).removeprefix("recommended: ")   # the limits in the page's words
    assert any("No fleet meets this scenario" in e and said[:1].upper() + said[1:] in e for e in errors), errors
    assert "power" in str(exc.value)
    assert not [m for m in at.metric if m.label.startswith("Total cost")]


BAD_YAML = b"""name: Broken upload
horizon_months: 36
onprem:
  pue: 7
workloads:
  - name: train
    gpu_hours_per_month: lots
    reference_gpu: A100-80GB-PCIE
"""


def test_an_invalid_upload_shows_its_errors_with_lines(base_plan):
    at = _app()
    at.file_uploader(key="upload_file").set_value(("broken.yaml", BAD_YAML, "application/x-yaml")).run()
    assert not at.exception
    text = "\n".join(e.value.replace("\\", "") for e in at.error)   # as read: without tables.plain's escapes
    assert "broken.yaml" in text and "was not loaded" in text
    assert "broken.yaml:4:" in text and "onprem.pue" in text          # line 4: pue: 7
    assert "broken.yaml:7:" in text and "gpu_hours_per_month" in text  # line 7: lots
    # the scenario on screen is still the default one, planned as before
    assert at.selectbox(key="base").value == "file:startup-hybrid.yaml"
    assert _metric(at, "Total cost").value == _money(base_plan.total)


def test_a_valid_upload_becomes_the_scenario(base):
    text = DEFAULT.read_text().replace("gpu_hours_per_month: 1500", "gpu_hours_per_month: 2500")
    at = _app()
    at.file_uploader(key="upload_file").set_value(("mine.yaml", text.encode(), "application/x-yaml")).run()
    assert not at.exception
    assert at.selectbox(key="base").value.startswith("upload:mine.yaml:")
    assert at.slider(key="edit:demand:prototyping").value == 2500.0
    expected = plan(load_scenario_text(text, origin="mine.yaml"))
    assert _metric(at, "Total cost").value == _money(expected.total)


def test_picking_another_scenario_file_plans_it():
    at = _app()
    at.selectbox(key="base").set_value("file:entry.yaml").run()
    assert not at.exception
    expected = plan(load_scenario(ROOT / "scenarios" / "entry.yaml"))
    assert _metric(at, "Total cost").value.startswith(f"{expected.total:,.0f}")


# ---------------------------------------------------------------------------------------------------
# Prices, Compare, Export


def test_prices_page_lists_the_offers_in_use():
    at = _app()
    at.switch_page("fleetplan_dashboard/pages/prices.py").run()
    assert not at.exception
    # ranked by the raw price: with the offers llm-finetune cannot use (40 GB A100s), listed only under the table there
    at.selectbox(key="prices_workload").set_value("(none: raw USD per GPU-hour)").run()
    table = at.dataframe[0].value
    assert {"aws", "azure", "onprem"} <= set(table["provider"])
    assert set(table.loc[table["provider"] != "onprem", "region"]) <= {"us-east-1", "eastus"}
    row = table[(table["sku"] == "p4d.24xlarge") & (table["region"] == "us-east-1")
                & (table["purchase_option"] == "on_demand")].iloc[0]
    assert abs(row["usd_per_hour"] - 21.957642) < 1e-9     # the snapshot's price of that offer
    assert row["usd_per_gpu_hour"] == pytest.approx(21.957642 / 8)
    assert row["as_of"]
    at.toggle(key="prices_in_use").set_value(False).run()
    assert len(at.dataframe[0].value) > len(table)
    at.multiselect(key="prices_gpu").set_value(["A100-80GB-SXM"]).run()
    assert set(at.dataframe[0].value["gpu"]) == {"A100-80GB-SXM"}


def test_compare_page_shows_the_edits_against_the_file(base, base_plan):
    at = _app()
    at.slider(key="edit:demand:prototyping").set_value(3000.0).run()
    at.switch_page("fleetplan_dashboard/pages/compare.py").run()
    assert not at.exception
    inputs = at.dataframe[0].value
    assert list(inputs["input"]) == ["prototyping: GPU-hours per month"]
    assert list(inputs["path"]) == ["workloads.prototyping.gpu_hours_per_month"]
    assert (inputs.iloc[0, 1], inputs.iloc[0, 2]) == ("1,500", "3,000")   # as the Plan page writes numbers
    edited = plan(_with_workload(base, "prototyping", gpu_hours_per_month=3000.0))
    assert _metric(at, "A: total").value == _money(base_plan.total)
    assert _metric(at, "B: total").value == _money(edited.total)
    assert _metric(at, "B − A").value == f"{edited.total - base_plan.total:+,.0f} USD"
    costs = next(d.value for d in at.dataframe if "cost_delta" in d.value.columns and "category" in d.value.columns)
    assert costs["cost_b"].sum() == pytest.approx(edited.total, rel=1e-9)

    # the edits survive the visit: back on the Plan page the slider still holds them
    at.switch_page("fleetplan_dashboard/pages/plan.py").run()
    assert at.slider(key="edit:demand:prototyping").value == 3000.0
    assert _metric(at, "Total cost").value == _money(edited.total)


def test_export_page_offers_yaml_json_csv_xlsx():
    at = _app()
    at.slider(key="edit:horizon_months").set_value(24).run()
    at.switch_page("fleetplan_dashboard/pages/export.py").run()
    assert not at.exception
    labels = [b.proto.label for b in at.get("download_button")]
    for wanted in ("Scenario (YAML)", "Plan (JSON)", "Fleet (CSV)", "All tables (CSV, zip)", "Workbook (XLSX)"):
        assert wanted in labels, labels
    yaml_text = next(c.value for c in at.code)
    assert load_scenario_text(yaml_text).horizon_months == 24


def test_export_contents_are_the_engines(base):
    from zipfile import ZipFile

    from openpyxl import load_workbook

    from fleetplan_dashboard import exports, state

    s = state.apply_edits(base, {**state.default_edits(base), "horizon_months": 24, "pue": 1.2})
    assert s.horizon_months == 24 and s.onprem.pue == 1.2
    p = state.plan_for(s).plan
    expected = plan(s)
    assert load_scenario_text(exports.scenario_yaml(s, "startup-hybrid.yaml", edited=True)) == s
    assert json.loads(exports.plan_json(p))["total"] == pytest.approx(expected.total, rel=1e-12)
    assert exports.plan_csv(p, "fleet").splitlines()[0].startswith("provider,region,sku")
    with ZipFile(io.BytesIO(exports.plan_csv_zip(p))) as zf:
        assert {"fleet.csv", "monthly.csv", "costs.csv", "baselines.csv"} <= set(zf.namelist())
    wb = load_workbook(io.BytesIO(exports.plan_xlsx(p)))
    assert "fleet" in wb.sheetnames


def test_plan_page_shows_the_purchase_schedule_owned_cards_assumptions_and_warnings(base_plan):
    at = _app()
    frames = [d.value for d in at.dataframe]
    shown = next(f for f in frames if list(f.columns) == list(base_plan.schedule.columns))
    assert list(shown["action"]) == list(base_plan.schedule["action"])
    assert list(shown["units"]) == list(base_plan.schedule["units"])
    # the start-up's two owned RTX 3060s: the plan sells them and the page says so
    owned = next(f for f in frames if list(f.columns) == list(base_plan.owned.columns))
    assert owned.iloc[0]["card"] == "rtx-3060-12gb" and "sell" in " ".join(map(str, owned.iloc[0].to_numpy()))
    assert any("straight" in c.value and "0" in c.value and "every 3 months" in c.value for c in at.caption)
    warnings = "\n".join(c.value for c in at.code)
    # as the page words them (tables.in_page_words: rtx-a5000's price said by the fields' words, not their paths)
    assert base_plan.warnings and all(tables.in_page_words(w) in warnings for w in base_plan.warnings)


def test_export_page_offers_the_focus_cost_rows():
    import csv

    from fleetplan_dashboard import exports

    at = _app()
    at.switch_page("fleetplan_dashboard/pages/export.py").run()
    assert not at.exception
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Cost rows (FinOps FOCUS 1.0, CSV)" in labels, labels
    # the file is the engine's FOCUS rows: its present values sum to the plan total, its effective costs
    # to its billed costs
    p = plan(load_scenario(DEFAULT), baselines=False)
    rows = list(csv.DictReader(io.StringIO(exports.plan_focus(p))))
    assert sum(float(r["x_PresentValue"]) for r in rows) == pytest.approx(p.total, rel=1e-9)
    assert sum(float(r["EffectiveCost"]) for r in rows) == pytest.approx(sum(float(r["BilledCost"]) for r in rows))
    assert {r["ProviderName"] for r in rows} <= {"AWS", "Microsoft", "On-premises"}
