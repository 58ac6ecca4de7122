"""The on-prem site figures a scenario may leave out — pue, availability, electricity_per_kwh — had defaults with no
source (1.4, 0.97, 0.12), applied without a word. Now (2026-12-06): pue 1.58, the industry average PUE of 2023
(Uptime Institute, Uptime Intelligence Update 221, 2023-11-23: "In 2023, industry average PUE stood at 1.58");
availability 1, no hours assumed lost (no public source gives a per-card share); electricity 0.12 kept, said to have no
source. A scenario whose plan may hold cards and leaves one out gets one warning naming what was assumed, from
validate (at its `onprem` key), plan and planner.plan() (and so the dashboard, which shows a plan's warnings).

Worked by hand (docs/cost-model.md §6), 12 months undiscounted, one A100 40GB PCIe owned new (no sourced price:
capex 0, maintenance 0, never sold), 100 W idle and 300 W busy (card_overrides), electricity 0.10 USD/kWh; the only
cloud offer costs 100 USD an hour (a test price, not a quote), so the card works every hour it can. Energy a month
= (idle kW × 730 h + (busy − idle) kW × hours worked) × PUE × price:
- pue left out (1.58), availability 0.9, 100 h of work a month (≤ 0.9 × 730 = 657 h):
  (0.1 × 730 + 0.2 × 100) × 1.58 × 0.10 = (73 + 20) × 0.158 = 93 × 0.158 = 14.694 a month; 12 months 176.328.
  (With the old 1.4: 93 × 0.14 × 12 = 156.24.)
- pue and availability left out (1.58, 1), 720 h of work a month: the card can work 1 × 730 = 730 h ≥ 720, so no
  cloud: (0.1 × 730 + 0.2 × 720) × 0.158 = (73 + 144) × 0.158 = 217 × 0.158 = 34.286 a month; 12 months 411.432.
  (With the old 0.97 the card could work 708.1 h and 11.9 h a month went to the cloud at 100 USD.)
"""

from __future__ import annotations

import inspect
import json

import pytest
import yaml
from cli_run import run

from planner import load_scenario, plan
from planner.engine.run import checked_scenario
from planner.errors import ScenarioError
from planner.scenario import OnPrem, apply_overrides
from planner.scenario.model import assumed_site_figures, defaults_left_out

ALL_LEFT_OUT = ("onprem: site figures not given, assumed: pue 1.58 (industry average of 2023, Uptime Institute), availability 1 "
                "(no hours lost; no public per-card figure), electricity_per_kwh 0.12 USD a kWh (no source): give your "
                "site's figures")
PUE_LEFT_OUT = ("onprem: site figures not given, assumed: pue 1.58 (industry average of 2023, Uptime Institute): give your "
                "site's figures")
OFFERS = (
    "offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,vcpus,"
    "memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n"
    "aws:us-east-1:g5.xlarge:on_demand,aws,us-east-1,g5.xlarge,on_demand,A10G,True,A10G,1.0,24.0,4.0,16.0,100.0,0.0,"
    "USD,0,,2026-07-20,test,\n")
WORKLOAD = "workloads: [{name: a, gpu_hours_per_month: 10, reference_gpu: A100-80GB-PCIE}]\n"
SITE = "  pue: 1.3\n  availability: 0.95\n  electricity_per_kwh: 0.2\n"


def warnings_of(text: str) -> list[str]:
    return [text for _, text in assumed_site_figures(load_scenario(text))]


def test_the_defaults_and_their_basis():
    fields = OnPrem.model_fields
    assert (fields["pue"].default, fields["availability"].default, fields["electricity_per_kwh"].default) == (
        1.58, 1.0, 0.12)
    assert "Uptime Institute" in fields["pue"].description and "2023-11-23" in fields["pue"].description
    assert "no public source" in fields["availability"].description
    assert "no source" in fields["electricity_per_kwh"].description


@pytest.mark.parametrize("onprem", [
    "onprem: {cards: [rtx-4090]}\n",
    "onprem: {existing: {rtx-4090: 2}}\n",
    "onprem: {custom_cards: {mine: {gpu: RTX-4090, price: 1800, currency: USD, busy_watts: 450, idle_watts: 30, "
    "life_years: 4}}}\n",
], ids=["cards", "existing", "custom_cards"])
def test_a_scenario_with_cards_that_leaves_all_three_out_gets_one_warning(onprem):
    assert warnings_of("name: s\n" + onprem + WORKLOAD) == [ALL_LEFT_OUT]


def test_only_the_figures_left_out_are_named_and_none_when_all_three_are_given():
    given_two = "name: s\nonprem:\n  cards: [rtx-4090]\n  availability: 0.95\n  electricity_per_kwh: 0.2\n"
    assert warnings_of(given_two + WORKLOAD) == [PUE_LEFT_OUT]
    # a value equal to the default, given, is given
    assert warnings_of("name: s\nonprem:\n  cards: [rtx-4090]\n  pue: 1.58\n  availability: 1\n  electricity_per_kwh: "
                       "0.12\n" + WORKLOAD) == []
    assert warnings_of("name: s\nonprem:\n  cards: [rtx-4090]\n" + SITE + WORKLOAD) == []


def test_an_all_cloud_scenario_gets_none():
    assert warnings_of("name: s\n" + WORKLOAD) == []
    assert warnings_of("name: s\nonprem: {cards: [], existing: {rtx-4090: 0}, power_cap_kw: 5}\n" + WORKLOAD) == []


def test_the_currency_is_the_scenarios():
    (text,) = warnings_of("name: s\ncurrency: EUR\nfx: {USD: 0.9}\nonprem: {cards: [rtx-4090]}\n" + WORKLOAD)
    assert "electricity_per_kwh 0.12 EUR a kWh (no source)" in text


def test_overrides_a_model_copy_and_a_dump_keep_a_default_a_default():
    s = load_scenario("name: s\nonprem: {cards: [rtx-4090], pue: 1.3}\n" + WORKLOAD)
    left = [text for _, text in assumed_site_figures(s)]
    assert left and "pue" not in left[0]
    assert [t for _, t in assumed_site_figures(apply_overrides(s, {"horizon_months": 12}))] == left
    assert [t for _, t in assumed_site_figures(checked_scenario(s.model_copy(update={"horizon_months": 12})))] == left
    # an override that gives a figure gives it
    given = apply_overrides(s, {"onprem.availability": 0.9, "onprem.electricity_per_kwh": 0.2})
    assert assumed_site_figures(given) == []
    dumped = defaults_left_out(s, s.model_dump(mode="json"))
    assert "pue" in dumped["onprem"] and "availability" not in dumped["onprem"]
    assert "electricity_per_kwh" not in dumped["onprem"]


def test_validate_places_the_warning_at_the_onprem_key(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("name: s\nhorizon_months: 3\nonprem:\n  cards: [rtx-4090]\n" + WORKLOAD, encoding="utf-8")
    result = run("validate", path)
    assert result.exit_code == 0
    assert f"warning: {path}:3:1: {ALL_LEFT_OUT}" in result.stderr.splitlines()
    given = tmp_path / "given.yaml"
    given.write_text("name: s\nhorizon_months: 3\nonprem:\n  cards: [rtx-4090]\n" + SITE + WORKLOAD, encoding="utf-8")
    result = run("validate", given)
    assert result.exit_code == 0 and "assumed" not in result.output
    cloud = tmp_path / "cloud.yaml"
    cloud.write_text("name: s\nhorizon_months: 3\n" + WORKLOAD, encoding="utf-8")
    assert "assumed" not in run("validate", cloud).output


def test_validate_json_names_the_field_and_line(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("name: s\nhorizon_months: 3\n\nonprem:\n  cards: [rtx-4090]\n" + WORKLOAD, encoding="utf-8")
    result = run("validate", path, "--format", "json")
    (found,) = [p for f in json.loads(result.stdout)["files"] for p in f["problems"]
                if "assumed" in p["message"]]
    assert (found["severity"], found["line"], found["column"], found["field"]) == ("warning", 4, 1, "onprem")
    assert found["message"] == ALL_LEFT_OUT.removeprefix("onprem: ")


def scenario(tmp_path, hours: float, **site) -> str:
    """The case of the module's docstring as a scenario file, with the site figures `site` given."""
    (tmp_path / "offers.csv").write_text(OFFERS, encoding="utf-8")
    section = {**site, "cards": [], "existing": {"a100-40gb-pcie": 1},
               "card_overrides": {"a100-40gb-pcie": {"busy_watts": 300, "idle_watts": 100}}}
    doc = {"name": "site defaults", "currency": "USD", "horizon_months": 12, "discount_rate": 0.0,
           "prices": {"source": "offers.csv", "providers": ["aws"], "purchase_options": ["on_demand"]},
           "onprem": section,
           "workloads": [{"name": "w", "gpu_hours_per_month": hours, "reference_gpu": "A100-40GB-PCIE",
                          "min_gpu_memory_gb": 16, "profile": "flat",
                          "throughput": {"A100-40GB-PCIE": 1.0, "A10G": 1.0}}]}
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return str(path)


def test_the_hand_worked_energy():
    assert 12 * (0.1 * 730 + 0.2 * 100) * 1.58 * 0.10 == pytest.approx(176.328)
    assert 12 * (0.1 * 730 + 0.2 * 720) * 1.58 * 0.10 == pytest.approx(411.432)


def test_a_plan_that_leaves_pue_out_costs_energy_at_1_58(tmp_path):
    p = plan(scenario(tmp_path, 100, electricity_per_kwh=0.1, availability=0.9), baselines=False)
    assert p.cost("energy") == pytest.approx(176.328, rel=1e-6)
    assert p.total == pytest.approx(176.328, rel=1e-6)   # no cloud hour, no capex
    assert PUE_LEFT_OUT in p.warnings


def test_a_plan_that_leaves_availability_out_loses_no_hours(tmp_path):
    p = plan(scenario(tmp_path, 720, electricity_per_kwh=0.1), baselines=False)
    assert p.cost("energy") == pytest.approx(411.432, rel=1e-6)
    assert p.total == pytest.approx(411.432, rel=1e-6)   # 720 h ≤ 730 h: no cloud hour
    assert [w for w in p.warnings if w.startswith("onprem: site figures not given")] == [
        "onprem: site figures not given, assumed: pue 1.58 (industry average of 2023, Uptime Institute), availability 1 "
        "(no hours lost; no public per-card figure): give your site's figures"]


def test_a_plan_that_gives_all_three_has_no_such_warning(tmp_path):
    p = plan(scenario(tmp_path, 100, electricity_per_kwh=0.1, availability=0.9, pue=1.0), baselines=False)
    assert p.cost("energy") == pytest.approx(12 * 93 * 0.10)   # PUE 1: 111.60
    assert not [w for w in p.warnings if "assumed" in w]


def test_the_cli_offers_defaults_are_the_scenarios():
    from planner.cli.commands import offers
    from planner.engine.offer_costs import offers_table

    defaults = {name: param.default.default for name, param in inspect.signature(offers).parameters.items()
                if name in ("electricity", "pue")}
    assert defaults == {"electricity": OnPrem.model_fields["electricity_per_kwh"].default,
                        "pue": OnPrem.model_fields["pue"].default}
    table_defaults = inspect.signature(offers_table).parameters
    assert (table_defaults["electricity_usd_per_kwh"].default, table_defaults["pue"].default) == (0.12, 1.58)


def test_a_path_into_a_figure_left_out_is_refused_once():
    # the dump leaves pue out (defaults_left_out): the path went on into a section it made, {}, which the model then
    # refused a second time ("onprem.pue: expected a number, got {}")
    s = load_scenario("name: s\nonprem: {cards: [rtx-4090]}\n" + WORKLOAD)
    with pytest.raises(ScenarioError) as raised:
        apply_overrides(s, {"onprem.pue.value": 1})
    assert raised.value.problems == ["onprem.pue.value: onprem.pue is a value, not a section; cannot go into 'value'"]
