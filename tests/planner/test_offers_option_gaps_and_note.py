"""`fleetplan offers` says what plan and validate say of a purchase option the packaged prices do not hold, and its
on-prem rows' note says where their running costs come from (an audit, 2026-12-06: `offers --option reserved_1y`
printed "0 offers" and nothing else, while plan and validate explain that the snapshot has no reserved_1y prices;
the on-prem note said "running costs per scenario" where no scenario is read: --electricity and --pue cost them).

Facts from outside the code: the packaged snapshot's CSVs (pricing_adapters/snapshots/aws.csv, azure.csv) price
on_demand and spot only; the catalog's RTX 4090 draws 810 W busy (planner/data/onprem_cards.csv)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from cli_run import run

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOTS = ROOT / "pricing_adapters" / "snapshots"


def packaged_options() -> set[str]:
    options = set()
    for name in ("aws.csv", "azure.csv"):
        with open(SNAPSHOTS / name, newline="", encoding="utf-8") as f:
            options |= {row["purchase_option"] for row in csv.DictReader(f)}
    return options


def warnings_of(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("warning: ")]


def test_the_packaged_snapshot_prices_no_reservation():
    assert packaged_options() == {"on_demand", "spot"}


def test_offers_of_an_option_the_snapshot_lacks_says_so_as_validate_does(tmp_path):
    result = run("offers", "--option", "reserved_1y")
    assert result.exit_code == 0, result.output
    said = "reserved_1y: no reserved_1y prices for aws (any region) or azure (any region) in the snapshot prices"
    assert warnings_of(result) == [f"warning: {said}"]
    assert "0 offers" in result.stdout
    # validate of a scenario allowing it says the same of it (and what plans use instead, which offers does not plan)
    scenario = tmp_path / "r.yaml"
    scenario.write_text("name: r\nprices:\n  purchase_options: [on_demand, reserved_1y]\n"
                        "workloads:\n  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}\n", encoding="utf-8")
    checked = run("validate", scenario)
    assert checked.exit_code == 0, checked.output
    assert f"{said}; plans use on_demand only" in checked.stderr


def test_offers_names_only_the_providers_and_regions_asked():
    result = run("offers", "--option", "reserved_3y", "--option", "spot", "--provider", "aws", "--region", "us-east-1",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    assert warnings_of(result) == ["warning: reserved_3y: no reserved_3y prices for aws in us-east-1 in the snapshot prices"]
    rows = json.loads(result.stdout)
    assert rows and {(r["provider"], r["region"], r["purchase_option"]) for r in rows} == {("aws", "us-east-1", "spot")}


@pytest.mark.parametrize("args", [["--option", "on_demand"], ["--option", "purchase"], ["--provider", "onprem",
                                                                                       "--option", "reserved_1y"]])
def test_offers_of_priced_options_or_of_cards_only_warn_of_no_option(args):
    result = run("offers", *args, "--limit", "1", "--format", "csv")
    assert result.exit_code == 0, result.output
    assert not [w for w in warnings_of(result) if "prices for" in w]


def test_the_onprem_note_names_the_electricity_and_pue_that_cost_the_rows():
    def rtx_4090(*args) -> dict:
        result = run("offers", "--provider", "onprem", "--gpu", "RTX-4090", "--format", "json", *args)
        assert result.exit_code == 0, result.output
        (row,) = [r for r in json.loads(result.stdout) if r["sku"] == "rtx-4090"]
        return row

    free, priced = rtx_4090("--electricity", "0"), rtx_4090("--electricity", "0.3", "--pue", "1.5")
    # busy every hour: 810 W × 1.5 × 0.3 USD/kWh = 0.3645 USD an hour more
    assert priced["usd_per_hour"] - free["usd_per_hour"] == pytest.approx(0.810 * 1.5 * 0.3, rel=1e-9)
    assert priced["note"] == ONPREM_NOTE
    assert "per scenario" not in priced["note"]


# what the hourly figure assumes, said in the note (it said only what capex is and where the running costs came from)
ONPREM_NOTE = ("capex = card + host share; the hourly price is the card busy every hour of its life: capex spread over "
               "its life (nothing back at its end), maintenance, and energy at busy power at the electricity price and "
               "PUE given (offers: --electricity, --pue); no availability, colocation or site costs")


def test_the_onprem_hourly_price_is_what_its_note_says():
    result = run("offers", "--provider", "onprem", "--gpu", "RTX-4090", "--format", "json", "--electricity", "0")
    assert result.exit_code == 0, result.output
    (row,) = [r for r in json.loads(result.stdout) if r["sku"] == "rtx-4090"]
    # planner/data/onprem_cards.csv: card 1,669.99 + host share 750 USD, life 3 years, maintenance 3 %/year; 730 h a month.
    # Busy every hour of 3 × 8,760 h, nothing back at the end, no energy at 0 USD/kWh, no availability factor
    capex = 1669.99 + 750
    assert row["usd_per_hour"] == pytest.approx(capex / (3 * 12 * 730) + capex * 0.03 / (12 * 730), rel=1e-9)
    assert row["note"] == ONPREM_NOTE
