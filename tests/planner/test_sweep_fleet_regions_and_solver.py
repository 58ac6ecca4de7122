"""A sweep's fleet column names the region of each cloud offer, as the plan's fleet table names the offer (its
unit_id, provider:region:sku:option), and a sweep refuses a solver it does not know before any point is solved
(an audit of 007245e: a sweep over providers read `azure:Standard_NC96ads_A100_v4 spot 24,584 h`, no region, and
`sweep(…, solver="gurobi")` gave one error row a point)."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pandas as pd
import pytest
from cli_run import run

from planner import PlannerError, load_scenario, sweep
from planner.reports import fleet_summary

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"

# The audit's scenario: 3,000 H100-SXM GPU-hours a month in 4-GPU jobs of ≥ 80 GB, interruptible, priced in EUR.
ALL = """\
name: all
currency: EUR
fx: {USD: 0.92}
horizon_months: 12
onprem: {cards: []}
prices:
  purchase_options: [on_demand, spot]
workloads:
  - name: train
    gpu_hours_per_month: 3000
    reference_gpu: H100-SXM
    min_gpu_memory_gb: 80
    gpus_per_job: 4
    interruptible: true
    interruption_overhead: 0.3
"""
# The packaged snapshot (pricing_adapters/snapshots/): AWS's one spot offer of 80 GB A100s is p4de.24xlarge in
# us-east-1 at 8.6505 USD/h; Azure's Standard_NC96ads_A100_v4 (4 × A100 80 GB PCIe) spot is cheapest in westus3, at
# 1.61612 USD/h (then eastus 1.777732, centralus 1.82622, eastus2 1.90996 …). Each point runs that one offer.
SPOT = {"[aws]": ("aws:us-east-1:p4de.24xlarge:spot", 8.6505), "[azure]": ("azure:westus3:Standard_NC96ads_A100_v4:spot",
                                                                          1.61612)}
EUR_PER_USD = 0.92


def test_fleet_summary_names_each_cloud_offer_with_its_region():
    # one sku rented in two regions and reserved in a third: three offers, each said apart
    fleet = pd.DataFrame({
        "provider": ["onprem", "azure", "azure", "azure"],
        "region": ["onprem", "eastus", "westus3", "westus2"],
        "sku": ["a100-80gb-pcie", "Standard_NC96ads_A100_v4", "Standard_NC96ads_A100_v4", "Standard_NC24ads_A100_v4"],
        "purchase_option": ["purchase", "spot", "spot", "reserved_1y"],
        "units": [2.0, math.nan, math.nan, 1.0], "instance_hours": [0.0, 1500.4, 24584.3, 0.0],
        "unit_id": ["onprem:onprem:a100-80gb-pcie:purchase", "azure:eastus:Standard_NC96ads_A100_v4:spot",
                    "azure:westus3:Standard_NC96ads_A100_v4:spot", "azure:westus2:Standard_NC24ads_A100_v4:reserved_1y"]})
    assert fleet_summary(fleet) == ("2 a100-80gb-pcie, 1 azure:westus2:Standard_NC24ads_A100_v4:reserved_1y; "
                                    "azure:eastus:Standard_NC96ads_A100_v4:spot 1,500 h, "
                                    "azure:westus3:Standard_NC96ads_A100_v4:spot 24,584 h")


def test_a_fleet_without_unit_id_is_named_by_its_key_columns():
    # a plan.json whose fleet rows hold only the key columns (load_plan_json takes it): a KeyError before
    fleet = pd.DataFrame({"provider": ["onprem", "aws"], "region": ["onprem", "us-east-1"],
                          "sku": ["rtx-a5000", "g5.xlarge"], "purchase_option": ["purchase", "on_demand"],
                          "units": [1.0, math.nan], "instance_hours": [0.0, 4290.0]})
    assert fleet_summary(fleet) == "1 rtx-a5000; aws:us-east-1:g5.xlarge:on_demand 4,290 h"


@pytest.fixture(scope="module")
def scenario_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("all") / "all.yaml"
    path.write_text(ALL)
    return path


def _hours(total_eur: float, usd_per_hour: float) -> str:
    """The whole hours a point's total buys of its one offer, with thousands separators."""
    return f"{total_eur / (usd_per_hour * EUR_PER_USD):,.0f} h"


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_a_sweep_over_providers_names_the_region_each_point_rents_in(scenario_file, fmt):
    result = run("sweep", scenario_file, "--vary", "prices.providers=[aws],[azure]", "--format", fmt, "--processes", 1)
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout))) if fmt == "csv" else json.loads(result.stdout)
    providers = [r["prices.providers"] if fmt == "csv" else f"[{', '.join(r['prices.providers'])}]" for r in rows]
    assert providers == ["[aws]", "[azure]"]
    for provider, row in zip(providers, rows):
        offer, usd_per_hour = SPOT[provider]
        # one text in every output, as the table shows it: the thousands separator stays (CSV quotes the cell)
        assert row["fleet"] == f"{offer} {_hours(float(row['total']), usd_per_hour)}"
    assert rows[1]["fleet"] == "azure:westus3:Standard_NC96ads_A100_v4:spot 24,584 h"   # the audit's row, with its region


def test_the_sweep_table_names_the_region_too(scenario_file, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    result = run("sweep", scenario_file, "--vary", "prices.providers=[azure]", "--processes", 1)
    assert result.exit_code == 0, result.output
    assert "azure:westus3:Standard_NC96ads_A100_v4:spot 24,584 h" in result.stdout


@pytest.mark.parametrize("solver", ["gurobi", "HiGHS", None, 1])
def test_a_sweep_refuses_an_unknown_solver_before_any_point(solver):
    called = []
    with pytest.raises(PlannerError) as caught:
        sweep(load_scenario(WORKED), vary={"horizon_months": [12, 24]}, solver=solver,
              progress=lambda done, n: called.append(done))
    assert type(caught.value) is PlannerError   # the class of sweep's other argument errors (processes=0)
    assert str(caught.value) == f"sweep: solver: expected one of highs, cbc, got {solver!r}"
    assert called == []   # no point was counted, let alone solved


def test_fleetplan_sweep_refuses_an_unknown_solver_in_one_line():
    result = run("sweep", WORKED, "--vary", "horizon_months=12,24", "--solver", "gurobi")
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.stderr.strip().splitlines()[-1] == ("Error: Invalid value for '--solver': expected one of cbc, highs, "
                                                      "got 'gurobi'")
