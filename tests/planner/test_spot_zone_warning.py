"""A spot price that is one availability zone's quote drives a plan that names only the region (a FinOps audit at
007245e): mix.yaml picked aws us-east-1 p4d.24xlarge spot, 56.7 % of its total, whose snapshot row (2.4655 USD/h,
zone use1-az1) is the lowest of 4 zone quotes; the fleet, plan.json and summary.md said "us-east-1", and FOCUS left
AvailabilityZone empty. The plan now warns of each spot offer it uses priced so, saying only what the row's note
says of the other zones, and FOCUS fills AvailabilityZone from the offer's zone."""

import csv
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

import planner
from planner.engine.run import spot_zone_warnings
from planner.reports.focus import plan_to_focus

SNAPSHOT = Path(__file__).resolve().parents[2] / "pricing_adapters" / "snapshots" / "aws.csv"
P4D_SPOT = "aws:us-east-1:p4d.24xlarge:spot"

MIX = {
    "name": "mix", "currency": "EUR", "fx": {"USD": 0.92}, "horizon_months": 12,
    "prices": {"source": "snapshot", "providers": ["aws", "azure"],
               "regions": ["us-east-1", "us-east-2", "us-west-2", "eastus", "eastus2", "westeurope"],
               "purchase_options": ["on_demand", "spot"]},
    "onprem": {"cards": []},
    "workloads": [
        {"name": "train", "gpu_hours_per_month": 4000, "reference_gpu": "A100-80GB-SXM", "min_gpu_memory_gb": 40,
         "gpus_per_job": 8, "interruptible": True, "interruption_overhead": 0.2},
        {"name": "infer", "reference_gpus": 2, "reference_gpu": "A10G", "min_gpu_memory_gb": 24, "serving": True},
    ],
}


@pytest.fixture(scope="module")
def mix():
    return planner.plan(MIX, baselines=False)


def test_the_snapshot_row_is_zone_use1_az1_lowest_of_4_quotes():
    """The facts the warnings below name, read from the packaged snapshot's row with the csv module."""
    with SNAPSHOT.open(newline="") as f:
        row = next(r for r in csv.DictReader(f) if r["offer_id"] == P4D_SPOT)
    assert (row["hourly_price"], row["zone"]) == ("2.4655", "use1-az1")
    assert row["note"].startswith("lowest of 4 zone quotes")


def test_mix_plan_uses_p4d_spot_and_warns_it_is_zone_use1_az1s_quote(mix):
    assert P4D_SPOT in set(mix.fleet["unit_id"])
    said = [w for w in mix.warnings if "p4d.24xlarge spot is priced at" in w]
    assert len(said) == 1
    assert said[0].startswith("aws us-east-1 p4d.24xlarge spot is priced at zone use1-az1's quote (2.4655 USD/h), "
                              "the lowest of 4 zone quotes")
    assert "may be limited to that zone" in said[0]
    # the other zones' prices (7.8799 … 8.1915 in the reference data) are in no offers row: never said
    assert not any(price in said[0] for price in ("7.8799", "8.1203", "8.1915"))


def test_mix_on_demand_offer_gets_no_zone_warning(mix):
    assert "aws:us-east-1:g5.xlarge:on_demand" in set(mix.fleet["unit_id"])
    assert not any("g5.xlarge" in w and "zone" in w for w in mix.warnings)


def test_focus_availability_zone_is_the_spot_offers_zone(mix):
    focus = plan_to_focus(mix)
    spot = focus[focus["ResourceID"] == P4D_SPOT]
    assert len(spot) and set(spot["AvailabilityZone"]) == {"use1-az1"}
    on_demand = focus[focus["ResourceID"] == "aws:us-east-1:g5.xlarge:on_demand"]
    assert len(on_demand) and on_demand["AvailabilityZone"].isna().all()


def _warnings_of(zone: str, note: str) -> list[str]:
    table = pd.DataFrame({"offer_id": ["aws:r:x:spot"], "provider": ["aws"], "region": ["r"], "sku": ["x"],
                          "zone": [zone], "note": [note], "hourly_price": [1.5], "currency": ["USD"]})
    fleet = pd.DataFrame({"unit_id": ["aws:r:x:spot"], "kind": ["spot"]})
    return spot_zone_warnings(SimpleNamespace(price_table=table), fleet)


def test_one_zone_quote_is_said_the_only_one():
    said = _warnings_of("use1-az1", "lowest of 1 zone quote | spot time unknown")
    assert len(said) == 1 and "zone use1-az1's quote (1.5 USD/h), the only zone quote" in said[0]


def test_what_the_note_dropped_is_said():
    said = _warnings_of("use1-az6", "lowest of 4 zone quotes; dropped 2 equal to on-demand | spot time unknown")
    assert "the lowest of 4 zone quotes; dropped 2 equal to on-demand (" in said[0]


def test_a_zone_without_a_note_and_a_note_without_a_zone_are_each_warned():
    assert "priced at zone z1's quote (1.5 USD/h): spot capacity" in _warnings_of("z1", "")[0]
    assert "priced at one zone's quote (1.5 USD/h), the lowest of 3 zone quotes" in _warnings_of(
        "", "lowest of 3 zone quotes")[0]


def test_a_spot_offer_with_neither_zone_nor_zone_note_is_not_warned():
    assert _warnings_of("", "spot time unknown") == []
